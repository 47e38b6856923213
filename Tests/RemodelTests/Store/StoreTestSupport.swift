import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A fresh folder under the system's temporary folder, removed when the value is released.
final class TemporaryFolder {
    let path: String

    /// A folder under `base` (default: the system's temporary folder).
    init(in base: String = NSTemporaryDirectory()) throws {
        path = base + (base.hasSuffix("/") ? "" : "/") + "remodel-store-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Every file name in the folder, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    func write(_ text: String, to name: String) throws -> String {
        let file = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }
}

enum StoreFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Store").path

    static func path(_ name: String) -> String { folder + "/" + name }

    static func everything() throws -> ModelBundle {
        try ModelBundle(contentsOf: path("Everything.xcdatamodel"))
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    /// A bundle "Library" with versions built in code; `edit` changes a version before it is added.
    static func library(
        name: String = "Library", versions: [String] = ["Library", "Library 2", "Library 3"], current: String? = nil,
        edit: (inout [Entity], String) -> Void = { _, _ in }
    ) -> ModelBundle {
        let all: [String: [Entity]] = [
            "Library": [Entity(name: "Book", attributes: [Attribute(name: "title", type: .string)])],
            "Library 2": [
                Entity(
                    name: "Book",
                    attributes: [Attribute(name: "title", type: .string), Attribute(name: "pages", type: .integer32)])
            ],
            "Library 3": [
                Entity(
                    name: "Book",
                    attributes: [Attribute(name: "title", type: .string), Attribute(name: "pages", type: .integer32)]),
                Entity(name: "Author", attributes: [Attribute(name: "name", type: .string)]),
            ],
        ]
        let built = versions.map { versionName in
            var entities = all[versionName] ?? []
            edit(&entities, versionName)
            return ModelVersion(name: versionName, entities: entities)
        }
        return ModelBundle(name: name, versions: built, currentVersionName: current)
    }
}

/// The bytes of a file, for checking that something left it unchanged.
func fileBytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}
