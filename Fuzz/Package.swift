// swift-tools-version:6.0
// Fuzz targets for Remodel's readers of untrusted text. A separate package, so
// that the root package's `swift build` and `swift test` never see libFuzzer.
// Build and run through `scripts/fuzz.sh TARGET SECONDS`; by hand:
//   swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --product FuzzModel
// The targets use `@testable import Remodel` (debug builds of the root package
// are compiled with testing enabled), so Remodel needs no public fuzz entry points.
import PackageDescription

// The targets have no Swift entry point (`-parse-as-library`, also passed on the command line);
// FuzzDriver defines the `<Target>_main` SwiftPM links as `main`, which runs libFuzzer's driver.
let parseAsLibrary: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "RemodelFuzz",
    dependencies: [
        .package(name: "Remodel", path: "..")
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "Remodel", package: "Remodel"),
                .product(name: "RemodelCoreData", package: "Remodel"),
            ]),
        .executableTarget(
            name: "FuzzModel", dependencies: ["FuzzSupport", "FuzzDriver", .product(name: "Remodel", package: "Remodel")],
            swiftSettings: parseAsLibrary),
        .executableTarget(
            name: "FuzzMapping", dependencies: ["FuzzSupport", "FuzzDriver", .product(name: "Remodel", package: "Remodel")],
            swiftSettings: parseAsLibrary),
        .executableTarget(
            name: "FuzzExpression", dependencies: ["FuzzSupport", "FuzzDriver", .product(name: "Remodel", package: "Remodel")],
            swiftSettings: parseAsLibrary),
        .executableTarget(
            name: "FuzzModelCache", dependencies: ["FuzzSupport", "FuzzDriver", .product(name: "Remodel", package: "Remodel")],
            swiftSettings: parseAsLibrary),
        .executableTarget(
            name: "FuzzArchive", dependencies: ["FuzzSupport", "FuzzDriver", .product(name: "Remodel", package: "Remodel")],
            swiftSettings: parseAsLibrary),
        .executableTarget(
            name: "FuzzMetadata", dependencies: ["FuzzSupport", "FuzzDriver", .product(name: "Remodel", package: "Remodel")],
            swiftSettings: parseAsLibrary),
    ]
)
