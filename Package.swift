// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Remodel",
    platforms: [.macOS(.v13)],
    products: [
        // Store.launch, migration and the store; re-exports RemodelModel (the model, its files, rules and layout).
        .library(name: "Remodel", targets: ["Remodel"]),
        // Many stores migrated `jobs` at a time, with shards, reports and resumes (`remodel migrate --stores`).
        .library(name: "RemodelFleet", targets: ["RemodelFleet"]),
        // `remodel validate` as a library: the models and mapping files of a project, checked together.
        .library(name: "RemodelProject", targets: ["RemodelProject"]),
        .library(name: "RemodelTesting", targets: ["RemodelTesting"]),
        // Importing a store written by Apple's Core Data, at first launch or once: `import RemodelCoreData`.
        .library(name: "RemodelCoreData", targets: ["RemodelCoreData"]),
        // `remodel generate` as a library: the GRDB records of a model version, as Swift source.
        .library(name: "RemodelGeneration", targets: ["RemodelGeneration"]),
        // Launch a store, then open a GRDB pool on it (docs/TYPED-ACCESS.md). An app that uses only `Remodel`
        // builds no GRDB: SwiftPM builds a dependency only for the products that use it.
        .library(name: "RemodelGRDB", targets: ["RemodelGRDB"]),
        .executable(name: "remodel", targets: ["RemodelCLI"]),
        .executable(name: "remodel-bench", targets: ["RemodelBench"]),
        .executable(name: "remodel-generate", targets: ["RemodelGenerate"]),
        // Generated GRDB records: at build time from a target's models, or written into the package on demand.
        .plugin(name: "RemodelRecords", targets: ["RemodelRecords"]),
        .plugin(name: "GenerateRecords", targets: ["GenerateRecords"]),
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
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // For RemodelGRDB, the generated records' tests and the bench; 7.10.0 is the version tested on Linux
        // (it has GRDB's Linux adjustments), and GRDB 8 may change the record protocols the generated code uses.
        .package(url: "https://github.com/groue/GRDB.swift", "7.10.0"..<"8.0.0"),
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
        // The model as its files give it, its rules and its store layout: what the records' generator needs, and
        // what `Remodel` builds on. The plugins' tool compiles this, not `Remodel`; what the generator never calls
        // (SQLite's C API, keyed archives, file copies) is in `Remodel` (docs/ARCHITECTURE.md).
        .target(
            name: "RemodelModel",
            dependencies: ["RemodelLibXML2"]
        ),
        .target(
            name: "Remodel",
            dependencies: [
                "RemodelModel",
                "RemodelSQLite",
            ]
        ),
        // What an app does not run at launch, apart so that an app's build does not compile it. The targets above
        // Remodel name RemodelModel too, though `import Remodel` brings it: the combined DocC build gives a target's
        // documentation links only into the archives of the targets it names (``/RemodelModel/RemodelError``).
        .target(
            name: "RemodelFleet",
            dependencies: ["RemodelModel", "Remodel"]
        ),
        .target(
            name: "RemodelProject",
            dependencies: ["RemodelModel", "Remodel"]
        ),
        // The test kit: migration cases and matrices, synthetic data for any version (`remodel seed`), and the
        // check of a finished migration object by object. An app's own build never compiles it.
        .target(
            name: "RemodelTesting",
            dependencies: ["RemodelModel", "Remodel"]
        ),
        // Core Data stores read and imported into a new store (`remodel import-core-data`, `extract-model`,
        // `Store.launch(at:bundle:importingCoreDataFrom:…)`). Apart from `Remodel` so that an app with no Core
        // Data store to bring over does not compile it.
        .target(
            name: "RemodelCoreData",
            dependencies: ["RemodelModel", "Remodel"]
        ),
        // The records generator (`remodel generate`, the plugins' tool): Swift source written from a version's
        // layout. Apart from `Remodel` so that an app's build does not compile it.
        .target(
            name: "RemodelGeneration",
            dependencies: ["RemodelModel"]
        ),
        .target(
            name: "RemodelGRDB",
            dependencies: ["RemodelModel", "Remodel", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .executableTarget(
            name: "RemodelCLI",
            dependencies: [
                "Remodel",
                "RemodelFleet",
                "RemodelProject",
                "RemodelTesting",
                "RemodelGeneration",
                "RemodelCoreData",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser",
                    condition: .when(traits: ["CommandLineTool"])),
            ],
            path: "Sources/remodel"
        ),
        .executableTarget(
            name: "RemodelBench",
            // RemodelSQLite: the bench reads SQLite's own counters (statement times, page caches, heap high-water).
            dependencies: [
                "Remodel", "RemodelFleet", "RemodelProject", "RemodelTesting", "RemodelGeneration", "RemodelCoreData",
                "RemodelSQLite",
                "LibraryRecords",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/remodel-bench"
        ),
        // The plugins' tool: `remodel generate` with RemodelModel alone (no `Remodel`, no argument parser to build).
        .executableTarget(
            name: "RemodelGenerate",
            dependencies: ["RemodelModel", "RemodelGeneration"],
            path: "Sources/remodel-generate"
        ),
        .plugin(
            name: "RemodelRecords",
            capability: .buildTool(),
            dependencies: ["RemodelGenerate"]
        ),
        .plugin(
            name: "GenerateRecords",
            capability: .command(
                intent: .custom(verb: "generate-records", description: "Write the GRDB records of the targets' models"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated records into the target")]
            ),
            dependencies: ["RemodelGenerate"]
        ),
        .testTarget(
            name: "RemodelTests",
            dependencies: [
                "RemodelModel", "Remodel", "RemodelFleet", "RemodelProject", "RemodelTesting", "RemodelGeneration",
                "RemodelCoreData",
            ],
            resources: [.copy("Fixtures")]
        ),
        // Generated code, committed and compiled: the sample models and the test fixture with every type,
        // inheritance and relationship kind. RecordsTests regenerates each and compares the bytes.
        .target(
            name: "LibraryRecords",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/GeneratedRecords/Library"
        ),
        .target(
            name: "DiligenceRecords",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/GeneratedRecords/Diligence"
        ),
        .target(
            name: "EverythingRecords",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/GeneratedRecords/Everything"
        ),
        .target(
            name: "NamesRecords",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/GeneratedRecords/Names"
        ),
        // The model's rules on every write: required to-ones (with and without an inverse), a one-to-one with a
        // required side, a three-level hierarchy with a concrete root, uniqueness over a to-one and on a
        // sub-entity, bounds on every kind, Deny and Cascade.
        .target(
            name: "RulesRecords",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/GeneratedRecords/Rules"
        ),
        // Transformable attributes typed from their `customClassName`: the records import `Remodel` for the archives.
        .target(
            name: "ArchivesRecords",
            dependencies: ["Remodel", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/GeneratedRecords/Archives"
        ),
        // Two configurations of one model, each generated into a folder of its own (`--configuration`), in one
        // module: their entities do not overlap, and their schema enums are named after the configuration.
        .target(
            name: "ShopRecords",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/GeneratedRecords/Shop"
        ),
        .testTarget(
            name: "RecordsTests",
            dependencies: [
                "RemodelModel", "Remodel", "RemodelGRDB", "RemodelGeneration", "RemodelTesting",
                "LibraryRecords", "DiligenceRecords", "EverythingRecords", "NamesRecords", "RulesRecords",
                "ArchivesRecords", "ShopRecords",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}

// The DocC plugin serves `swift package generate-documentation` alone (every library's documentation as one archive:
// the command is in `.ci/run` and docs/API.md), run with REMODEL_DOCS=1 set: any other build of the package (a fresh
// clone's `swift build`) neither fetches nor compiles it.
if Context.environment["REMODEL_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
