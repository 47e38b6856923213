import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The sample model's stores for the downgrade tests: a store made at `Library 3` by the newer build,
/// and the older build's bundle, the sample without `Library 3` (current `Library 2`).
struct DowngradeScene {
    let folder: TemporaryFolder
    let store: String
    /// The older build's `Library.xcdatamodeld` (versions `Library` and `Library 2`).
    let olderPath: String
    let older: ModelBundle
    /// The newer build's bundle, the sample itself (three versions).
    let newer: ModelBundle

    /// Two people, three books, no email and no tag: everything `Library 2` lacks is empty.
    static let cleanSeed = """
        {"Person": [{"_pk": 1, "fullName": "Ada Lovelace", "age": 36, "email": null, "books": [11, 12]},
                    {"_pk": 2, "fullName": "Grace Hopper", "age": null, "email": null, "books": [13]}],
         "Book": [{"_pk": 11, "title": "Notes", "isbn": "978-1", "pageCount": 12, "price": "9.50", "publishedOn": "1843-09-01T00:00:00.000Z", "author": 1, "tags": []},
                  {"_pk": 12, "title": "Sketch", "isbn": null, "pageCount": null, "price": null, "publishedOn": null, "author": 1, "tags": []},
                  {"_pk": 13, "title": "COBOL", "isbn": "978-3", "pageCount": 300, "price": "20.00", "publishedOn": null, "author": 2, "tags": []}],
         "Tag": []}
        """

    /// The same, but two emails, three tags and four links from books to tags: values `Library 2` has no place for.
    static let lossySeed = """
        {"Person": [{"_pk": 1, "fullName": "Ada Lovelace", "age": 36, "email": "ada@example.org", "books": [11, 12]},
                    {"_pk": 2, "fullName": "Grace Hopper", "age": null, "email": "grace@example.org", "books": [13]}],
         "Book": [{"_pk": 11, "title": "Notes", "isbn": "978-1", "pageCount": 12, "price": "9.50", "publishedOn": "1843-09-01T00:00:00.000Z", "author": 1, "tags": [21, 22]},
                  {"_pk": 12, "title": "Sketch", "isbn": null, "pageCount": null, "price": null, "publishedOn": null, "author": 1, "tags": [22]},
                  {"_pk": 13, "title": "COBOL", "isbn": "978-3", "pageCount": 300, "price": "20.00", "publishedOn": null, "author": 2, "tags": [23]}],
         "Tag": [{"_pk": 21, "name": "math"}, {"_pk": 22, "name": "poetry"}, {"_pk": 23, "name": "languages"}]}
        """

    /// Both seeds' export at `Library 2`: every person, book and link, object by object; email and tags gone.
    static let downgradedExport = """
        {
          "Book": [
            {"_pk": 11, "isbn": "978-1", "pageCount": 12, "price": "9.50", "publishedOn": "1843-09-01T00:00:00.000Z", "title": "Notes", "author": 1},
            {"_pk": 12, "isbn": null, "pageCount": null, "price": null, "publishedOn": null, "title": "Sketch", "author": 1},
            {"_pk": 13, "isbn": "978-3", "pageCount": 300, "price": "20.00", "publishedOn": null, "title": "COBOL", "author": 2}
          ],
          "Person": [
            {"_pk": 1, "age": 36, "fullName": "Ada Lovelace", "books": [11, 12]},
            {"_pk": 2, "age": null, "fullName": "Grace Hopper", "books": [13]}
          ]
        }

        """

    /// A store at `Library 3` made with `seed` (``cleanSeed`` by default), in a new folder with the older bundle.
    init(seed: String = DowngradeScene.cleanSeed, storeName: String = "library.sqlite") throws {
        folder = try TemporaryFolder()
        newer = try MigrationFixtures.library()
        olderPath = try Self.writeOlderBundle(in: folder.file("older"))
        older = try ModelBundle(contentsOf: olderPath)
        store = folder.file(storeName)
        try Self.makeStore(at: store, seed: seed, bundle: newer, in: folder)
    }

    /// A store at `Library 3` made with `seed` at `path`.
    static func makeStore(at path: String, seed: String, bundle: ModelBundle, in folder: TemporaryFolder) throws {
        let seedFile = try folder.write(seed, to: "seed-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(atPath: seedFile) }
        _ = try Store.create(at: path, bundle: bundle, version: "Library 3", seed: seedFile)
    }

    /// Copies the sample bundle into `folder` without `Library 3`, current `Library 2`; returns its path.
    static func writeOlderBundle(in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bundle = folder + "/Library.xcdatamodeld"
        try FileManager.default.copyItem(
            atPath: MigrationFixtures.packageRoot + "/Models/Library.xcdatamodeld", toPath: bundle)
        try FileManager.default.removeItem(atPath: bundle + "/Library 3.xcdatamodel")
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Library 2.xcdatamodel</string></dict></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: bundle + "/.xccurrentversion"))
        return bundle
    }

    /// The store's export, read with the newer build's bundle (it knows every version).
    func export(_ path: String? = nil) throws -> String {
        let store = try Store.openForReading(at: path ?? self.store, bundle: newer)
        return try store.exportJSONString()
    }

    /// Options for the older build: the given downgrade policy.
    static func options(_ downgrade: DowngradePolicy, keepBackup: Bool = false) -> MigrationOptions {
        var options = MigrationOptions(keepBackup: keepBackup)
        options.downgrade = downgrade
        return options
    }

    /// The contents file of a version of the sample.
    static func contents(_ version: String) throws -> String {
        try String(
            contentsOfFile: MigrationFixtures.packageRoot
                + "/Models/Library.xcdatamodeld/\(version).xcdatamodel/contents", encoding: .utf8)
    }

    /// The metadata row `key` of a store, read directly.
    static func metadataValue(_ key: String, in path: String) throws -> String? {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        if case .text(let value)? = try connection.scalar(
            "SELECT value FROM _RemodelMetadata WHERE key = ?", [.text(key)])
        {
            return value
        }
        return nil
    }
}
