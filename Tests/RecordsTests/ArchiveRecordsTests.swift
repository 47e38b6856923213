import ArchivesRecords
import Foundation
import GRDB
import Remodel
import Testing

/// Transformable attributes typed from their `customClassName` (the `Archives` fixture): each value written
/// through the records is the keyed archive `NSKeyedArchiver` writes, which `remodel export` shows as its objects;
/// an archive the store holds is read as the Swift value and written back byte for byte until the value is set;
/// bytes that are no archive of the type are refused naming the object and the attribute; a `customClassName`
/// without element types stays `Data`.
struct ArchiveRecordsTests {
    let bundle: ModelBundle

    init() throws {
        bundle = try RecordsTestSupport.model("Tests/RemodelTests/Fixtures/Generation/Archives.xcdatamodel")
    }

    static let readers: Set<UUID> = [
        UUID(uuidString: "0E1D4B8C-6E4B-4D0F-9A59-2F6C2C0F7A11")!,
        UUID(uuidString: "B1C2D3E4-F5A6-4B7C-8D9E-0F1A2B3C4D5E")!,
    ]
    static let history: [[String: Date]] = [
        ["opened": Date(timeIntervalSinceReferenceDate: 600_000_000.5)], [:],
    ]

    func store(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("archives.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        return path
    }

    func blob(_ queue: DatabaseQueue, _ column: String, _ key: Int64) throws -> Data? {
        try queue.read { db in
            try Data.fetchOne(db, sql: "SELECT \"\(column)\" FROM Note WHERE _pk = ?", arguments: [key])
        }
    }

    @Test func valuesWrittenThroughTheRecordsAreTheArchivesExportShowsAndReadBack() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try store(in: folder)
        let queue = try DatabaseQueue(path: path)
        var note = Note(
            title: "Lyon", tags: ["red", "blue"], counts: ["views": 3, "likes": -1],
            link: URL(string: "https://example.com/a?b=c"), readers: Self.readers, history: Self.history,
            anything: Data([1, 2]), nothing: ArchivesSchema.Nothing())
        try queue.write { db in try note.insert(db) }
        let key = try #require(note.id)

        #expect(try blob(queue, "tags", key.rawValue) == KeyedArchiveCoding.encode(["red", "blue"]))
        let export = try RecordsTestSupport.export(path, bundle)
        #expect(export.contains(#""tags": {"$keyedArchive": ["red", "blue"]}"#), "\(export)")
        #expect(export.contains(#""counts": {"$keyedArchive": {"likes": -1, "views": 3}}"#), "\(export)")
        #expect(export.contains(#""link": {"$keyedArchive": {"$url": "https://example.com/a?b=c"}}"#), "\(export)")
        #expect(export.contains(#""opened": {"$date": "2020-01-06T10:40:00.500Z"}"#), "\(export)")
        #expect(export.contains(#""anything": "AQI=""#), "\(export)")
        // A composite without members (a real model has one) is the empty object.
        #expect(export.contains(#""nothing": {}"#), "\(export)")

        let read = try queue.read { db in try Note.fetchOne(db, key: key) }
        #expect(read == note)
        #expect(read?.readers == Self.readers)
        #expect(read?.history == Self.history)
        // The records' own Codable holds the values, not their archives.
        let json = String(decoding: try JSONEncoder().encode(note), as: UTF8.self)
        #expect(json.contains(#""tags":["red","blue"]"#), "\(json)")
        #expect(try JSONDecoder().decode(Note.self, from: Data(json.utf8)) == note)

        // The export imports back into the same bytes.
        let again = folder.appendingPathComponent("again.sqlite").path
        let exported = folder.appendingPathComponent("export.json").path
        try export.write(toFile: exported, atomically: true, encoding: .utf8)
        _ = try Store.create(at: again, bundle: bundle, seed: exported)
        #expect(try blob(DatabaseQueue(path: again), "readers", key.rawValue) == blob(queue, "readers", key.rawValue))
    }

    @Test func anArchiveTheStoreHoldsIsWrittenBackAsItWasUntilTheValueIsSet() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try store(in: folder)
        let queue = try DatabaseQueue(path: path)
        // The order of top keys older systems wrote: the records' own writer would not write these bytes.
        let legacy = Data(
            PropertyListArchive(
                root: .array([.string("red"), .string("blue")], mutable: true), layout: .legacy
            ).bytes)
        #expect(legacy != KeyedArchiveCoding.encode(["red", "blue"]))
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO Note (_pk, _entity, title, tags, history) VALUES (1, 'Note', 'Old', ?, ?)",
                arguments: [legacy, KeyedArchiveCoding.encode(Self.history)])
        }
        try queue.write { db in
            var note = try #require(try Note.fetchOne(db, key: 1))
            #expect(note.tags == ["red", "blue"])
            note.title = "Renamed"
            try note.update(db)
        }
        #expect(try blob(queue, "tags", 1) == legacy)
        try queue.write { db in
            var note = try #require(try Note.fetchOne(db, key: 1))
            note.tags = ["green"]
            try note.update(db)
        }
        #expect(try blob(queue, "tags", 1) == KeyedArchiveCoding.encode(["green"]))
    }

    @Test(arguments: [
        (Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xFF]), "a keyed archive that does not read"),
        (KeyedArchiveCoding.encode(["a": 1]), "holds a dictionary where an array is wanted"),
        (KeyedArchiveCoding.encode([1, 2]), "holds an integer where a string is wanted"),
    ])
    func bytesThatAreNoArchiveOfTheTypeAreRefusedNamingTheObject(bytes: Data, found: String) throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: try store(in: folder))
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO Note (_pk, _entity, title, tags, history) VALUES (4, 'Note', 'Odd', ?, ?)",
                arguments: [bytes, KeyedArchiveCoding.encode(Self.history)])
        }
        do {
            _ = try queue.read { db in try Note.fetchOne(db, key: 4) }
            Issue.record("bytes that are no archive of [String] were read")
        } catch let error as ArchivesSchema.RecordError {
            #expect(error.kind == .undecodable)
            #expect(error.message.hasPrefix(#"Note _pk 4 attribute "tags": expected an archive of [String]"#))
            #expect(error.message.contains(found), "\(error.message)")
        }
    }
}
