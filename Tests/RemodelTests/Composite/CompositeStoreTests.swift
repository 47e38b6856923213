import Foundation
import Testing

@testable import Remodel

/// Composite values through `import`, `export` and the store: every member typed and checked, nested composites
/// too, written back in the composite's order; a wrong member refused naming the entity, object, attribute and
/// member; a damaged stored value refused by `export` before anything is written.
struct CompositeStoreTests {
    /// A store of ``CompositeModels/trip()`` made from `seed`.
    private func store(_ folder: TemporaryFolder, seed: String = CompositeModels.seed, contents: String? = nil)
        throws -> (Store, ModelBundle)
    {
        let bundle = try CompositeModels.bundle(contents ?? CompositeModels.trip(), in: folder)
        let path = folder.file("trips.sqlite")
        let store = try Store.create(
            at: path, bundle: bundle, version: "Trips", seed: try folder.write(seed, to: "seed.json"))
        return (store, bundle)
    }

    @Test func roundTripsEveryMemberInTheCompositesOrder() throws {
        let folder = try TemporaryFolder()
        let (store, bundle) = try store(folder)
        let export = try store.exportJSONString()
        #expect(export == CompositeModels.seedExport)
        // The export imports back into an empty store and exports the same text.
        let again = try Store.create(
            at: folder.file("again.sqlite"), bundle: bundle, version: "Trips",
            seed: try folder.write(export, to: "export.json"))
        #expect(try again.exportJSONString() == export)
        // The stored text is the export's object, member by member.
        let stored = try SQLiteConnection(path: folder.file("trips.sqlite"), mode: .readOnly).scalar(
            "SELECT place FROM Trip WHERE _pk = 1")
        #expect(
            stored
                == .text(
                    #"{"city": "Lyon", "visits": 3, "since": "2020-05-01T12:00:00.000Z", "geo": {"lat": 45.764, "lon": 4.8357}}"#
                ))
    }

    @Test(arguments: [
        (
            #"{"city": "Lyon", "visits": "three"}"#,
            #"Trip _pk 1 attribute "place": member "visits": expected an integer, found "three""#
        ),
        (
            #"{"city": "Lyon", "visits": 40000}"#,
            #"Trip _pk 1 attribute "place": member "visits": expected an integer that fits Integer 16, found 40000"#
        ),
        (
            #"{"city": "Lyon", "visits": -1}"#,
            #"Trip _pk 1 attribute "place": member "visits": must be at least 0, found -1"#
        ),
        (#"{"visits": 1}"#, #"Trip _pk 1 attribute "place": member "city": a value is required, found null"#),
        (
            #"{"city": "A city whose name is too long"}"#,
            #"Trip _pk 1 attribute "place": member "city": must be at most 20 characters, found 29"#
        ),
        (
            #"{"city": "Lyon", "geo": {"lat": 1.5, "lon": "east"}}"#,
            #"Trip _pk 1 attribute "place": member "geo.lon": expected a number, found "east""#
        ),
        (
            #"{"city": "Lyon", "geo": {"lat": 1.5}}"#,
            #"Trip _pk 1 attribute "place": member "geo.lon": a value is required, found null"#
        ),
        (
            #"{"city": "Lyon", "town": "x"}"#,
            #"Trip _pk 1 attribute "place": the composite has no member "town" (its members: "city", "visits", "since", "geo")"#
        ),
        (#"{"city": "Lyon", "city": "Paris"}"#, #"Trip _pk 1 attribute "place": member "city": appears twice"#),
        (#""Lyon""#, #"Trip _pk 1 attribute "place": expected an object of the composite's members, found "Lyon""#),
        (
            #"{"city": "Lyon", "since": "yesterday"}"#,
            #"Trip _pk 1 attribute "place": member "since": expected an ISO 8601 date such as "2024-01-02T03:04:05.678Z", found "yesterday""#
        ),
    ])
    func refusesAWrongMemberNamingIt(place: String, message: String) throws {
        let folder = try TemporaryFolder()
        let seed = #"{"Trip": [{"_pk": 1, "name": "x", "place": \#(place)}]}"#
        let error = try #require(throws: RemodelError.self) { try store(folder, seed: seed) }
        #expect(error.message == message)
        #expect(error.entity == "Trip")
        #expect(error.primaryKey == 1)
        #expect(error.property == "place")
    }

    /// Values the app's own SQL wrote over stored composites, each refused by `export` naming the object.
    static let damaged: [(String, String)] = [
        ("'not json'", #"is not valid JSON"#),
        (#"'{"city": "Lyon", "visits": "x"}'"#, #"member "visits": expected an integer, found "x""#),
        (#"'{"city": "Lyon", "bogus": 1}'"#, #"the composite has no member "bogus""#),
        ("42", "expected an object of the composite's members, found 42"),
        ("x'0102'", "is not the text of a JSON object but a blob"),
        (#"'[1, 2]'"#, "expected an object of the composite's members, found an array"),
        (#"'{"city": "Lyon", "geo": {"lat": true, "lon": 1}}'"#, #"member "geo.lat": expected a number, found true"#),
        (#"'{"city": "Lyon"} trailing'"#, "is not valid JSON"),
    ]

    @Test(arguments: damaged)
    func exportRefusesADamagedValueBeforeWritingAnything(value: String, problem: String) throws {
        let folder = try TemporaryFolder()
        let (store, _) = try store(folder)
        let connection = try SQLiteConnection(path: folder.file("trips.sqlite"), mode: .readWrite)
        try connection.execute("UPDATE Trip SET place = \(value) WHERE _pk = 1")
        let output = folder.file("out.json")
        let error = try #require(throws: RemodelError.self) { try store.exportJSON(to: output) }
        #expect(error.message.hasPrefix(#"Trip _pk 1 attribute "place" holds a damaged composite value: "#))
        #expect(error.message.contains(problem), "\(error.message)")
        #expect(error.primaryKey == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(throws: RemodelError.self) { try store.exportJSONString() }
    }

    @Test func exportCommandPrintsNothingAndExitsOneForADamagedValue() throws {
        let folder = try TemporaryFolder()
        let (_, bundle) = try store(folder)
        _ = bundle
        let connection = try SQLiteConnection(path: folder.file("trips.sqlite"), mode: .readWrite)
        try connection.execute(#"UPDATE Trip SET place = '{"city": 7}' WHERE _pk = 2"#)
        let result = try RemodelProcess.run([
            "export", folder.file("trips.sqlite"), "--model", folder.file("Trips.xcdatamodeld"),
        ])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(
            result.error.contains(
                #"Trip _pk 2 attribute "place" holds a damaged composite value: member "city": expected a string, found 7"#
            ), "\(result.error)")
    }

    @Test func uniquenessConstraintOnAMemberRefusesTwoObjectsSharingIt() throws {
        let folder = try TemporaryFolder()
        let contents = CompositeModels.trip(
            entityExtra: """
                <uniquenessConstraints><uniquenessConstraint><constraint value="place.city"/></uniquenessConstraint></uniquenessConstraints>
                <fetchIndex name="byLatitude"><fetchIndexElement property="place.geo.lat" type="Binary" order="descending"/></fetchIndex>
                """)
        let seed = """
            {"Trip": [{"_pk": 1, "name": "a", "place": {"city": "Lyon"}}, {"_pk": 2, "name": "b", "place": {"city": "Paris"}},
                      {"_pk": 3, "name": "c", "place": {"city": "Lyon"}}]}
            """
        let error = try #require(throws: RemodelError.self) { try store(folder, seed: seed, contents: contents) }
        #expect(error.message.contains("_pk 1 and _pk 3 have the same place.city, which must be unique"), "\(error)")
        // Without the duplicate the store is made with both indexes, and SQLite uses them for the member.
        let distinct = seed.replacingOccurrences(of: #""c", "place": {"city": "Lyon"}"#, with: #""c", "place": null"#)
        let other = try TemporaryFolder()
        _ = try store(other, seed: distinct, contents: contents)
        let connection = try SQLiteConnection(path: other.file("trips.sqlite"), mode: .readOnly)
        let indexes = try connection.rows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Trip' ORDER BY name"
        )
        .map { "\($0[0].text ?? ""): \($0[1].text ?? "")" }
        #expect(
            indexes == [
                #"_Trip_fetch_byLatitude: CREATE INDEX "_Trip_fetch_byLatitude" ON "Trip" (json_extract("place", '$."geo"."lat"') DESC)"#,
                #"_Trip_unique_1: CREATE UNIQUE INDEX "_Trip_unique_1" ON "Trip" (json_extract("place", '$."city"'))"#,
            ])
        let plan = try connection.rows(
            #"EXPLAIN QUERY PLAN SELECT _pk FROM Trip WHERE json_extract("place", '$."city"') = 'Paris'"#
        ).map { $0.last?.text ?? "" }
        #expect(plan.contains { $0.contains("USING INDEX _Trip_unique_1") }, "\(plan)")
    }
}
