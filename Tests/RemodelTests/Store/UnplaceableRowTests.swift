import Foundation
import Testing

@testable import Remodel

/// A row whose `_entity` the model cannot place (no entity of that name, an abstract one, one of another
/// table), written by hand: no command leaves it out without a word. Export refuses naming the table, the
/// `_pk` and the value; migrate refuses at planning naming the same; `status` reports it as drift. Each
/// refused store is byte for byte as it was.
@Suite struct UnplaceableRowTests {
    /// Animal (abstract) with Cat and Dog in one table, which has an `_entity` index; Keeper alone in its own.
    static let zoo = """
        <entity name="Animal" isAbstract="YES"><attribute name="name" attributeType="String"/></entity>
        <entity name="Cat" parentEntity="Animal"><attribute name="lives" optional="YES" attributeType="Integer 16"/></entity>
        <entity name="Dog" parentEntity="Animal"/>
        <entity name="Keeper"><attribute name="name" attributeType="String"/></entity>
        """
    /// The same with a new optional attribute: the migration carries both tables as they are.
    static let zoo2 = zoo.replacingOccurrences(
        of: #"<attribute name="name" attributeType="String"/></entity>"#,
        with:
            #"<attribute name="name" attributeType="String"/><attribute name="nickname" optional="YES" attributeType="String"/></entity>"#
    )
    static let seed = """
        {"Cat": [{"_pk": 1, "name": "Tom", "lives": 9}], "Dog": [{"_pk": 2, "name": "Rex"}],
         "Keeper": [{"_pk": 1, "name": "Ann"}]}
        """

    /// A store at `version` in a fresh folder, with `sql` run on it afterwards (the rows written by hand).
    private func store(at version: String, _ sql: String) throws -> (
        folder: TemporaryFolder, store: String, bundle: String
    ) {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo", Self.zoo), ("Zoo 2", Self.zoo2)])
        let store = folder.file("zoo.sqlite")
        _ = try Store.create(
            at: store, bundle: try ModelBundle(contentsOf: bundle), version: version,
            seed: try folder.write(Self.seed, to: "seed.json"))
        try SQLiteConnection(path: store).execute(sql)
        return (folder, store, bundle)
    }

    /// What every refusal of these stores says after the rows it names.
    private static let advice =
        "They were written by hand or by another tool, and exporting or migrating would leave them out, so Remodel left the store untouched: give those rows the _entity of an entity of that table (or delete them), or add their entity to the model in a new version, then try again."

    private static func refusal(_ store: String, at version: String, _ rows: String) -> String {
        "The store at \(store) records version \"\(version)\" of model \"Zoo\", but it has rows that version cannot place: \(rows). \(advice)"
    }

    @Test func exportAndOpeningRefuseARowOfNoEntityOfTheTable() async throws {
        let (folder, store, bundlePath) = try self.store(
            at: "Zoo 2",
            """
            INSERT INTO Animal (_pk, _entity, name) VALUES (3, 'Ghost', 'Boo'), (4, 'Animal', 'Generic'),
                (5, 'Keeper', 'Lost'), (6, 'Ghost', 'Boo 2');
            """)
        let bundle = try ModelBundle(contentsOf: bundlePath)
        let text = Self.refusal(
            store, at: "Zoo 2",
            "table \"Animal\" has a row (_pk 4) whose _entity is 'Animal', an abstract entity, which has no objects of its own; table \"Animal\" has 2 rows (the first _pk 3) whose _entity is 'Ghost', no entity of this version; table \"Animal\" has a row (_pk 5) whose _entity is 'Keeper', an entity stored in table \"Keeper\""
        )
        try expectCommandRefusedUntouched(
            ["export", store, "--model", bundlePath], error: "error: \(text)\n", folder: folder.path)
        try await expectRefusedUntouched(.schemaDrift, .message(text), folder: folder.path) {
            _ = try await Store.launch(at: store, bundle: bundle)
        }
        let inspection = try StoreInspector.inspect(path: store, bundle: bundle)
        expectSameText(inspection.message, text)
        guard case .schemaDrift(_, let drifts) = inspection.state else {
            Issue.record("not drift: \(inspection.state)")
            return
        }
        #expect(drifts.map(\.kind) == [.unplaceableRows, .unplaceableRows, .unplaceableRows])
        #expect(
            drifts.compactMap(\.unplaceable) == [
                .init(value: "'Animal'", firstKey: 4, count: 1, reason: .abstract),
                .init(value: "'Ghost'", firstKey: 3, count: 2, reason: .unknown),
                .init(value: "'Keeper'", firstKey: 5, count: 1, reason: .otherTable("Keeper")),
            ])
    }

    @Test func migrateAndItsDryRunRefuseAtPlanningAndStatusReportsDrift() async throws {
        let (folder, store, bundlePath) = try self.store(
            at: "Zoo", "INSERT INTO Animal (_pk, _entity, name) VALUES (150001, 'Ghost', 'Boo')")
        let bundle = try ModelBundle(contentsOf: bundlePath)
        let text = Self.refusal(
            store, at: "Zoo",
            "table \"Animal\" has a row (_pk 150001) whose _entity is 'Ghost', no entity of this version")
        for extra in [[], ["--dry-run"], ["--check-everything"]] {
            try expectCommandRefusedUntouched(
                ["migrate", store, "--model", bundlePath, "--progress", "none"] + extra, error: "error: \(text)\n",
                folder: folder.path)
        }
        try expectCommandRefusedUntouched(
            ["status", store, "--model", bundlePath], error: "error: \(text)\n", folder: folder.path)
        try await expectRefusedUntouched(.schemaDrift, .message(text), folder: folder.path) {
            try await Migrator(bundle: bundle).migrate(storeAt: store)
        }
        try expectRefusedUntouched(.schemaDrift, .message(text), folder: folder.path) {
            _ = try Migrator(bundle: bundle).plan(storeAt: store)
        }
    }

    /// A table of one entity has no `_entity` index: it is read whole only where it is read anyway. Export
    /// refuses its stray row; a migration that carries the table carries the row too (nothing is left out),
    /// one that rebuilds the table refuses once the store is copied (the copy removed), and so does one asked to
    /// check everything, at planning.
    @Test func aTableOfOneEntityIsSearchedWhereItIsReadAnyway() async throws {
        let (folder, store, bundlePath) = try self.store(
            at: "Zoo", "INSERT INTO Keeper (_pk, _entity, name) VALUES (7, 'Ghost', 'Boo')")
        let bundle = try ModelBundle(contentsOf: bundlePath)
        let row = "table \"Keeper\" has a row (_pk 7) whose _entity is 'Ghost', no entity of this version"
        try expectCommandRefusedUntouched(
            ["export", store, "--model", bundlePath], error: "error: \(Self.refusal(store, at: "Zoo", row))\n",
            folder: folder.path)
        var everything = MigrationOptions()
        everything.checksEverything = true
        try await expectRefusedUntouched(
            .schemaDrift, .message(Self.refusal(store, at: "Zoo", row)), folder: folder.path
        ) {
            try await Migrator(bundle: bundle, options: everything).migrate(storeAt: store)
        }
        let mappings = folder.file("Mappings")
        try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
        _ = try folder.write(
            """
            <mapping model="Zoo" sourceVersion="Zoo" destinationVersion="Zoo 2">
              <entity source="Keeper" destination="Keeper"><attribute name="name" value="uppercase($source.name)"/></entity>
            </mapping>
            """, to: "Mappings/Zoo to Zoo 2.xml")
        try await expectRefusedUntouched(
            .schemaDrift, .message(Self.refusal(store, at: "Zoo", row)), folder: folder.path
        ) {
            try await Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: mappings)).migrate(
                storeAt: store)
        }

        let report = try await Migrator(bundle: bundle).migrate(storeAt: store)
        #expect(report.steps == 1)
        let rows = try SQLiteConnection(path: store, mode: .readOnly).rows(
            "SELECT _pk, _entity, name FROM Keeper ORDER BY _pk")
        #expect(rows == [[.integer(1), .text("Keeper"), .text("Ann")], [.integer(7), .text("Ghost"), .text("Boo")]])
        try expectRefusedUntouched(
            .schemaDrift, .message(Self.refusal(store, at: "Zoo 2", row)), folder: folder.path
        ) {
            try Store.open(at: store, bundle: bundle).exportJSON(to: folder.file("export.json"))
        }
    }

    /// The search in a table of several entities is a seek in its `_entity` index per gap between the names
    /// the table may hold, never a scan of the table or of the whole index.
    @Test func theSearchSeeksInTheEntityIndex() throws {
        let (folder, store, _) = try self.store(at: "Zoo 2", "")
        defer { withExtendedLifetime(folder) {} }
        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        for sql in UnplaceableRows.seekSQL(table: "Animal") {
            let plan = try connection.rows(
                "EXPLAIN QUERY PLAN " + sql,
                [.text("Cat"), .text("Dog")].prefix(
                    sql.filter { $0 == "?" }.count
                ).map { $0 })
            let details = plan.compactMap { row -> String? in
                if case .text(let detail)? = row.last { return detail }
                return nil
            }
            #expect(details.count == 1, "\(sql): \(details)")
            #expect(
                details.first?.hasPrefix("SEARCH Animal USING COVERING INDEX _Animal_entity_index (") == true,
                "\(sql): \(details)")
        }
    }
}
