import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A step builds its new unique indexes before phase 3: one SQLite builds proves its constraint, and one that
/// meets duplicates leaves the store as it was, for phase 3 to name them.
@Suite struct UniqueIndexBuildTests {
    /// A store like a step's: no journal, pages freed by a dropped table to be reused, and `Item` rows named `names`.
    private func stepStore(in folder: TemporaryFolder, names: [String]) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: folder.file("step.sqlite"))
        try connection.execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE Old (x TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO Old SELECT hex(randomblob(200)) FROM n;
            CREATE TABLE Item (_pk INTEGER PRIMARY KEY, _entity TEXT NOT NULL, name TEXT);
            DROP TABLE Old
            """)
        for (offset, name) in names.enumerated() {
            try connection.run("INSERT INTO Item VALUES (?, 'Item', ?)", [.integer(Int64(offset + 1)), .text(name)])
        }
        return connection
    }

    private let index = StoreLayout.Index(
        name: "_Item_unique_1", table: "Item", keys: [.init(column: "name")], isUnique: true)

    @Test func anIndexBuiltProvesItsConstraint() throws {
        let folder = try TemporaryFolder()
        let connection = try stepStore(in: folder, names: (1...500).map { "item \($0)" })
        var tables: [String] = []
        let proven = try UniqueIndexBuild(connection: connection).run([index]) { tables.append($0) }
        #expect(proven == [index])
        #expect(tables == ["Item"], "progress hears of every index")
        #expect(
            try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = '_Item_unique_1'") == .integer(1))
        #expect(
            try connection.scalar("PRAGMA main.journal_mode") == .text("off"),
            "the step's store goes back to no journal")
    }

    @Test func anIndexThatMeetsDuplicatesLeavesNothingBehind() throws {
        let folder = try TemporaryFolder()
        let names = (1...500).map { "item \($0)" } + ["item 7"]
        let connection = try stepStore(in: folder, names: names)
        var tables: [String] = []
        let proven = try UniqueIndexBuild(connection: connection).run([index]) { tables.append($0) }
        #expect(proven.isEmpty)
        #expect(tables == ["Item"])
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'index'") == .integer(0))
        #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try connection.scalar("SELECT count(*) FROM Item") == .integer(Int64(names.count)))
        #expect(
            try connection.rows("SELECT _pk FROM Item WHERE name = 'item 7' ORDER BY _pk") == [
                [.integer(7)], [.integer(501)],
            ])
    }

    /// Phase 3 skips the search for duplicates of a constraint an index the step built proves, and only then:
    /// here the store has duplicates behind the index's back, so the skip is what the result shows.
    @Test func phase3SkipsTheSearchAnIndexBuiltMakesNeedless() throws {
        let folder = try TemporaryFolder()
        let bundle = try MigrationFixtures.bundle("Unique")
        let version = try bundle.loadVersion(named: "Refuse 2")
        let path = folder.file("step.sqlite")
        _ = try Store.create(at: path, bundle: bundle, version: "Refuse 2")
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute(
            #"DROP INDEX "_Item_unique_1"; INSERT INTO "Item" ("_pk", "_entity", "name") VALUES (1, 'Item', 'a'), (2, 'Item', 'a')"#
        )
        let layout = StoreLayout(version: version)
        let unique = try #require(layout.indexes.first { $0.isUnique })
        let item = try #require(version.entity(named: "Item"))
        let searching = MigrationValidator(connection: connection, version: version, layout: layout) { _, _, _ in }
        #expect(try searching.uniquenessFailures(of: item).map(\.primaryKey) == [2], "searched without a proof")
        let proven = MigrationValidator(
            connection: connection, version: version, layout: layout, provenUnique: [unique]
        ) { _, _, _ in }
        #expect(try proven.uniquenessFailures(of: item).isEmpty, "an index built proves the constraint")
    }

    @Test func whichConstraintsAnIndexProves() {
        let partial = StoreLayout.Index(
            name: "_Dog_unique_1", table: "Animal", keys: [.init(column: "name")], isUnique: true,
            entities: ["Dog", "Puppy"])
        #expect(index.proves(columns: ["name"], of: ["Item"], in: "Item"))
        #expect(
            index.proves(columns: ["name", "code"], of: ["Item"], in: "Item"),
            "unique on fewer columns is unique on more")
        #expect(!index.proves(columns: ["code"], of: ["Item"], in: "Item"))
        #expect(!index.proves(columns: ["name"], of: ["Item"], in: "Other"))
        #expect(partial.proves(columns: ["name"], of: ["Puppy"], in: "Animal"))
        #expect(!partial.proves(columns: ["name"], of: ["Dog", "Cat"], in: "Animal"), "the index does not cover cats")
        var plain = index
        plain.isUnique = false
        #expect(!plain.proves(columns: ["name"], of: ["Item"], in: "Item"))
    }
}
