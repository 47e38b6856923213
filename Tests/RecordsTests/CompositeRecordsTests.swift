import EverythingRecords
import Foundation
import GRDB
import Remodel
import Testing

/// A Composite attribute through the records: its own struct, written as the JSON object the store keeps (so
/// `remodel export` shows the members written), read back member by member, a damaged stored value refused naming
/// the object, attribute and member, and a member JSON cannot hold refused before anything is written.
struct CompositeRecordsTests {
    let bundle: ModelBundle

    init() throws { bundle = try RecordsTestSupport.model("Tests/RemodelTests/Fixtures/Store/Everything.xcdatamodel") }

    func emptyStore(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("composite.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        return path
    }

    @Test func aCompositeWrittenThroughTheRecordsIsTheObjectExportShowsAndReadsBackMemberByMember() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try emptyStore(in: folder)
        let queue = try DatabaseQueue(path: path)
        let places = [
            EverythingSchema.Place(lat: 45.764, city: "Lyon / \"Presqu'île\""), EverythingSchema.Place(lat: -0.5),
        ]
        try queue.write { db in
            for place in places {
                var sample = Sample(place: place)
                try sample.insert(db)
            }
            var none = Sample()
            try none.insert(db)
        }
        let export = try RecordsTestSupport.export(path, bundle)
        #expect(export.contains(#""place": {"lat": 45.764, "city": "Lyon / \"Presqu'île\""}"#), "\(export)")
        #expect(export.contains(#""place": {"lat": -0.5, "city": null}"#))
        #expect(export.contains(#""place": null"#))
        try queue.read { db in
            let read = try Sample.order(Column("_pk")).fetchAll(db).map(\.place)
            #expect(read == places + [nil])
            // The records' own Codable holds the composite as an object of its members.
            let json = String(decoding: try JSONEncoder().encode(read[0]), as: UTF8.self)
            #expect(json.contains(#""lat":45.764"#))
            #expect(try JSONDecoder().decode(EverythingSchema.Place.self, from: Data(json.utf8)) == places[0])
        }
    }

    @Test(arguments: [
        (#"{"lat": "x", "city": null}"#, #"member "lat": expected Double"#),
        (#"{"city": "Lyon"}"#, #"member "lat": a value is required"#),
        (#"{"lat": null, "city": "Lyon"}"#, #"member "lat": a value is required"#),
        (#"[1, 2]"#, "expected Dictionary"),
        ("not json", "the store holds a damaged composite value"),
    ])
    func aDamagedStoredValueIsRefusedNamingTheObjectAttributeAndMember(_ stored: String, _ expected: String) throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: try emptyStore(in: folder))
        try queue.write { db in
            var sample = Sample(place: EverythingSchema.Place(lat: 1))
            try sample.insert(db)
            try db.execute(sql: "UPDATE Sample SET place = ?", arguments: [stored])
            let error = try #require(throws: EverythingSchema.RecordError.self) { try Sample.fetchAll(db) }
            #expect(error.kind == .undecodable)
            #expect(
                error.message.hasPrefix(#"Sample _pk 1 attribute "place": the store holds a damaged composite value"#))
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    @Test func aMemberJSONCannotHoldIsRefusedNamingItAndNothingIsWritten() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: try emptyStore(in: folder))
        try queue.write { db in
            var sample = Sample(place: EverythingSchema.Place(lat: .infinity, city: "Nowhere"))
            let error = try #require(throws: EverythingSchema.RecordError.self) { try sample.insert(db) }
            #expect(error.kind == .invalidValue)
            #expect(
                error.message.hasPrefix(#"Sample (not inserted) attribute "place": member "lat": "#), "\(error.message)"
            )
            #expect(try Sample.fetchCount(db) == 0)
        }
    }
}
