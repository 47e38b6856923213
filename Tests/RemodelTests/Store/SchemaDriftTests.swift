import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// DESIGN.md "The schema is checked before use": a store whose schema no longer matches the version it
/// records (a model column or table dropped or renamed with sqlite3, a join table missing) is refused
/// untouched by open, launch, status, migrate, export and import, naming the table and column; the app's
/// own additions are not drift. And a store in a newer layout format is refused untouched like a newer
/// version (DESIGN.md, `formatVersion`).
struct SchemaDriftTests {
    private static let seed = """
        {"Person": [{"_pk": 1, "fullName": "Ada Lovelace", "age": 36, "email": "ada@x"}, {"_pk": 2, "fullName": "Grace Hopper", "age": 85}],
         "Book": [{"_pk": 1, "title": "Notes", "author": 1, "tags": [1]}], "Tag": [{"_pk": 1, "name": "math"}]}
        """
    private static let oldSeed = """
        {"Person": [{"_pk": 1, "firstName": "Ada", "lastName": "Lovelace", "yearsSinceBirth": 36, "email": "ada@x"}],
         "Book": [{"_pk": 1, "title": "Notes", "author": 1}]}
        """

    /// A store of the Library model at `version` with a few objects, changed by `sql` as sqlite3 would.
    private func store(at version: String, seed: String, changedBy sql: String) throws -> MigrationCase {
        let folder = try TemporaryFolder()
        let seedFile = try folder.write(seed, to: "seed.json")
        let store = try MigrationCase(bundle: try MigrationFixtures.library(), version: version, seed: seedFile)
        try SQLiteConnection(path: store.store).execute(sql)
        return store
    }

    /// Every way in refuses with `code` and `message`, and the folder is byte for byte as it was.
    private func expectRefusedEverywhere(_ store: MigrationCase, code: RemodelError.Code, message: String) async throws
    {
        let inspection = try StoreInspector.inspect(path: store.store, bundle: store.bundle)
        #expect(inspection.refusal?.code == code)
        expectSameText(inspection.message, message)
        let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        let attempts: [() async throws -> Void] = [
            { _ = try Store.open(at: store.store, bundle: store.bundle) },
            { _ = try Store.openOrCreate(at: store.store, bundle: store.bundle) },
            { _ = try Store.openForReading(at: store.store, bundle: store.bundle) },
            { _ = try await Store.launch(at: store.store, bundle: store.bundle) },
            { try await store.migrate(options) },
            { _ = try Migrator(bundle: store.bundle, options: options).plan(storeAt: store.store) },
        ]
        for attempt in attempts {
            try await expectRefusedUntouched(code, .description(message), folder: store.folder.path, attempt)
        }
    }

    @Test func aModelColumnDroppedWithSQLiteIsRefusedEverywhereNamingTableAndColumn() async throws {
        let store = try store(at: "Library 3", seed: Self.seed, changedBy: "ALTER TABLE Person DROP COLUMN email")
        try await expectRefusedEverywhere(
            store, code: .schemaDrift,
            message:
                "The store at \(store.store) records version \"Library 3\" of model \"Library\", but its schema no longer matches that version: table \"Person\" has no column \"email\". It was changed by hand or by another tool, so Remodel left it untouched: restore what is missing (or the store from a backup), then try again."
        )
        let inspection = try StoreInspector.inspect(path: store.store, bundle: store.bundle)
        #expect(
            inspection.state
                == .schemaDrift(
                    version: "Library 3",
                    drifts: [SchemaDrift(kind: .missingColumn, table: "Person", column: "email", unexpectedColumns: [])]
                ))
    }

    @Test func aRenamedColumnOfAnOlderStoreIsRefusedBeforeMigratingNamingWhatIsThereInstead() async throws {
        let store = try store(
            at: "Library", seed: Self.oldSeed, changedBy: "ALTER TABLE Person RENAME COLUMN yearsSinceBirth TO years")
        try await expectRefusedEverywhere(
            store, code: .schemaDrift,
            message:
                "The store at \(store.store) records version \"Library\" of model \"Library\", but its schema no longer matches that version: table \"Person\" has no column \"yearsSinceBirth\" (its columns the model does not have: \"years\"). It was changed by hand or by another tool, so Remodel left it untouched: restore what is missing (or the store from a backup), then try again."
        )
    }

    @Test func aMissingTableAndJoinTableAreEachNamed() async throws {
        let store = try store(
            at: "Library 3", seed: Self.seed, changedBy: "DROP TABLE Tag; ALTER TABLE _Book_tags RENAME TO book_tags")
        try await expectRefusedEverywhere(
            store, code: .schemaDrift,
            message:
                "The store at \(store.store) records version \"Library 3\" of model \"Library\", but its schema no longer matches that version: table \"Tag\" is missing; join table \"_Book_tags\" is missing. It was changed by hand or by another tool, so Remodel left it untouched: restore what is missing (or the store from a backup), then try again."
        )
    }

    @Test func aModelTableReplacedByAViewIsRefused() async throws {
        let store = try store(
            at: "Library 3", seed: Self.seed,
            changedBy: "ALTER TABLE Tag RENAME TO tag_rows; CREATE VIEW Tag AS SELECT * FROM tag_rows")
        try await expectRefusedEverywhere(
            store, code: .schemaDrift,
            message:
                "The store at \(store.store) records version \"Library 3\" of model \"Library\", but its schema no longer matches that version: \"Tag\" is a view, not a table. It was changed by hand or by another tool, so Remodel left it untouched: restore what is missing (or the store from a backup), then try again."
        )
    }

    @Test func theAppsOwnAdditionsAndAColumnRenamedOnlyInCaseAreNotDrift() async throws {
        let store = try store(
            at: "Library", seed: Self.oldSeed,
            changedBy: """
                ALTER TABLE Person ADD COLUMN app_synced_at REAL; CREATE TABLE app_log (line TEXT);
                CREATE VIEW app_books AS SELECT isbn FROM Book; ALTER TABLE Book RENAME COLUMN title TO TITLE;
                """)
        let inspection = try StoreInspector.inspect(path: store.store, bundle: store.bundle)
        #expect(inspection.state == .older(version: "Library", matchedBy: .name))
        try await store.migrate(MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings))
        #expect(try store.versionName() == "Library 3")
    }

    @Test func aMissingModelIndexIsNotDriftAndTheStoreStillOpensAndMigrates() async throws {
        let store = try store(at: "Library", seed: Self.oldSeed, changedBy: "")
        let indexes = try SQLiteConnection(path: store.store).rows(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '\\_%' ESCAPE '\\'")
        for case .text(let name) in indexes.map({ $0[0] }) {
            try SQLiteConnection(path: store.store).execute("DROP INDEX \(quoteIdentifier(name))")
        }
        #expect(
            try StoreInspector.inspect(path: store.store, bundle: store.bundle).state
                == .older(version: "Library", matchedBy: .name))
        try await store.migrate(MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings))
        #expect(try store.versionName() == "Library 3")
        // The migration creates every model index again.
        let layout = StoreLayout(version: try store.bundle.loadVersion(named: "Library 3"))
        let present = try SQLiteConnection(path: store.store, mode: .readOnly).rows(
            "SELECT name FROM sqlite_master WHERE type = 'index'"
        )
        .compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        }
        #expect(Set(layout.indexes.map(\.name)).isSubset(of: Set(present)))
    }

    @Test func statusExportAndImportRefuseADriftedStoreAndExitNonZero() throws {
        let store = try store(at: "Library 3", seed: Self.seed, changedBy: "ALTER TABLE Person DROP COLUMN age")
        let model = MigrationFixtures.packageRoot + "/Models/Library.xcdatamodeld"
        let json = try store.folder.write(#"{"Tag": [{"name": "history"}]}"#, to: "more.json")
        let before = try store.snapshot()
        let message =
            "The store at \(store.store) records version \"Library 3\" of model \"Library\", but its schema no longer matches that version: table \"Person\" has no column \"age\". It was changed by hand or by another tool, so Remodel left it untouched: restore what is missing (or the store from a backup), then try again."
        let status = try RemodelProcess.run(["status", store.store, "--model", model])
        #expect(status.status == 1)
        #expect(status.output == "")
        #expect(status.error == "error: \(message)\n")
        for arguments in [["export", store.store, "--model", model], ["import", store.store, json, "--model", model]] {
            let result = try RemodelProcess.run(arguments)
            #expect(result.status == 1, "\(arguments[0])")
            #expect(result.error == "error: \(message)\n", "\(arguments[0])")
        }
        #expect(try store.snapshot() == before)
    }

    @Test func aStoreInANewerFormatIsRefusedUntouchedAtEveryVersion() async throws {
        for (version, seed) in [("Library 3", Self.seed), ("Library", Self.oldSeed)] {
            let store = try store(
                at: version, seed: seed,
                changedBy: "UPDATE _RemodelMetadata SET value = '2' WHERE key = 'formatVersion'")
            try await expectRefusedEverywhere(
                store, code: .newerStore,
                message:
                    "The store at \(store.store) is in store format 2, newer than the format 1 this build of Remodel reads: it was written by a newer version of the app, so it was left untouched; open it with that version of the app."
            )
            #expect(
                try StoreInspector.inspect(path: store.store, bundle: store.bundle).state
                    == .newerFormat(formatVersion: 2))
        }
    }
}
