import Foundation
import Remodel

/// The resources SwiftPM copied beside the app (`Bundle.module`), or why they are not there.
struct MissingResource: Error, CustomStringConvertible {
    var name: String
    var description: String { "the app's resources have no \(name): see `resources:` in Package.swift" }
}

guard let model = Bundle.module.url(forResource: "Notes", withExtension: "xcdatamodeld") else {
    throw MissingResource(name: "Notes.xcdatamodeld")
}
guard let mappings = Bundle.module.url(forResource: "Mappings", withExtension: nil) else {
    throw MissingResource(name: "Mappings")
}

// The store: the path given, else one in the temporary folder.
let store = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("notes.sqlite")

// Created on first launch, migrated when older (with the mapping files where inference cannot), opened when
// current, refused untouched when newer.
let (opened, outcome) = try await Store.launch(
    at: store, bundle: try ModelBundle(contentsOf: model), options: MigrationOptions(mappingsDirectory: mappings)
) { progress in
    if progress.phase == .finished { print("Migration finished.") }
}
print(outcome)
print("\(store.path) is at version \"\(opened.version.name)\".")
