// swift-tools-version:6.1
import PackageDescription

// An app that ships its model and mapping files as resources and opens its store at launch (README, "In your
// app"). `scripts/example-app.sh` builds it and runs it on a store of the older version.
let package = Package(
    name: "NotesApp",
    platforms: [.macOS(.v13)],
    dependencies: [
        // A clone of Remodel in a folder of any name: `name:` gives the package the name `package:` uses below.
        // From GitHub instead: .package(url: "https://github.com/<owner>/Remodel.git", branch: "main", traits: [])
        .package(name: "Remodel", path: "../..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "NotesApp",
            dependencies: [.product(name: "Remodel", package: "Remodel")],
            // The bundle and the folder go in as they are: `.copy` keeps a folder whole (`.process` would flatten it).
            resources: [.copy("Notes.xcdatamodeld"), .copy("Mappings")]
        )
    ]
)
