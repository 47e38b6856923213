// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Remodel",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Remodel", targets: ["Remodel"]),
        .library(name: "RemodelTesting", targets: ["RemodelTesting"]),
        .executable(name: "remodel", targets: ["RemodelCLI"]),
        .executable(name: "remodel-bench", targets: ["RemodelBench"]),
    ],
    traits: [
        // SwiftPM brings every dependency of every product of a package into the graph of an app that depends on
        // it, and compiles the plugins of each (swift-argument-parser's GenerateManual and GenerateDoccReference).
        // An app that uses only the libraries leaves this trait out: `.package(url: …, from: …, traits: [])`.
        .trait(
            name: "CommandLineTool",
            description: "The remodel tool's argument parser (swift-argument-parser); the libraries need nothing."),
        .default(enabledTraits: ["CommandLineTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        .systemLibrary(
            name: "RemodelLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "RemodelSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .target(
            name: "Remodel",
            dependencies: [
                "RemodelLibXML2",
                "RemodelSQLite",
            ]
        ),
        .target(
            name: "RemodelTesting",
            dependencies: ["Remodel"]
        ),
        .executableTarget(
            name: "RemodelCLI",
            dependencies: [
                "Remodel",
                "RemodelTesting",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser",
                    condition: .when(traits: ["CommandLineTool"])),
            ],
            path: "Sources/remodel"
        ),
        .executableTarget(
            name: "RemodelBench",
            // RemodelSQLite: the bench reads SQLite's own counters (statement times, page caches, heap high-water).
            dependencies: ["Remodel", "RemodelSQLite"],
            path: "Sources/remodel-bench"
        ),
        .testTarget(
            name: "RemodelTests",
            dependencies: ["Remodel", "RemodelTesting"],
            resources: [.copy("Fixtures")]
        ),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}

// The DocC plugin serves `swift package generate-documentation --target Remodel` alone, which `.ci/run` runs with
// REMODEL_DOCS=1 set: any other build of the package (a fresh clone's `swift build`) neither fetches nor compiles it.
if Context.environment["REMODEL_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
