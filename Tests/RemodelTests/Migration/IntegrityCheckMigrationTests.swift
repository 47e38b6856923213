import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `MigrationOptions.integrityCheck`: what `.quick` (the default) and `.full` each find in a step's store.
@Suite struct IntegrityCheckMigrationTests {
    private func library() throws -> MigrationCase {
        try MigrationCase(bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
    }

    /// Rewrites the schema of the store being built behind SQLite's back, the way a damaged file would
    /// look: `PRAGMA writable_schema`, then a new schema version so the connection reads it again.
    static func rewriteSchema(_ connection: SQLiteConnection, _ sql: String) throws {
        guard case .integer(let version)? = try connection.scalar("PRAGMA main.schema_version") else { return }
        try connection.execute("PRAGMA writable_schema = ON")
        try connection.execute(sql)
        try connection.execute("PRAGMA writable_schema = OFF")
        try connection.execute("PRAGMA main.schema_version = \(version + 1)")
    }

    /// An index whose entries are not its table's rows (its definition changed after it was built).
    private static let mismatchedIndex: @Sendable (MigrationStepDatabase) throws -> Void = { database in
        // The last step only: an earlier step's store, index and all, is the next step's copy.
        guard database.step.destination.name == "Library 3" else { return }
        try database.connection.execute(#"CREATE INDEX "_broken" ON "Book" ("title")"#)
        try rewriteSchema(
            database.connection,
            #"UPDATE main.sqlite_master SET sql = 'CREATE INDEX "_broken" ON "Book" ("_pk")' WHERE name = '_broken'"#)
    }

    /// The full check compares every index with its table, names the index, and leaves the store as it was.
    @Test func fullCheckFindsAnIndexThatDoesNotMatchItsTable() async throws {
        let migration = try library()
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.integrityCheck = .full
        options.hooks.afterStep = Self.mismatchedIndex
        try await expectRefusedUntouched(
            .validationFailed,
            .message(
                "the data migrated from Library 2 to Library 3 breaks the model's rules, so the store was left as it was:\n  - -: row 1 missing from index _broken [integrity-check]\n  - -: row 2 missing from index _broken [integrity-check]\n  - -: row 3 missing from index _broken [integrity-check]"
            ), folder: migration.folder.path
        ) {
            try await migration.migrate(options)
        }
    }

    /// The written scope is the default (the contract: a step costs what it changes); the quick check does not
    /// compare indexes with tables: the same store migrates.
    @Test func quickCheckDoesNotCompareIndexes() async throws {
        #expect(MigrationOptions().integrityCheck == .writtenTables)
        let migration = try library()
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.integrityCheck = .quick
        options.hooks.afterStep = Self.mismatchedIndex
        let report = try await migration.migrate(options)
        #expect(report.targetVersion == "Library 3")
    }

    /// Both checks find a NULL in a NOT NULL column, which no rule of the model looks at (`_entity`).
    @Test(arguments: [MigrationOptions.IntegrityCheck.quick, .full])
    func eitherCheckFindsANullInANotNullColumn(check: MigrationOptions.IntegrityCheck) async throws {
        let migration = try library()
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.integrityCheck = check
        options.hooks.afterStep = { database in
            let connection = database.connection
            guard
                case .text(let table)? = try connection.scalar("SELECT sql FROM main.sqlite_master WHERE name = 'Book'")
            else { return }
            let loose = table.replacingOccurrences(of: "TEXT NOT NULL", with: "TEXT")
            try Self.rewriteSchema(connection, "UPDATE main.sqlite_master SET sql = '\(loose)' WHERE name = 'Book'")
            try connection.execute(#"INSERT INTO "Book" ("_pk", "_entity", "title") VALUES (99, NULL, 'no entity')"#)
            try Self.rewriteSchema(connection, "UPDATE main.sqlite_master SET sql = '\(table)' WHERE name = 'Book'")
        }
        let error = try await #require(throws: RemodelError.self) { try await migration.migrate(options) }
        #expect(error.message.contains("- -: NULL value in Book._entity [integrity-check]"), "\(error.message)")
    }

    /// Twenty offenders end phase 3 before SQLite's check is wanted: the check, still running on its
    /// own thread, is stopped, and the store is left as it was.
    @Test func enoughOffendersStopTheCheck() async throws {
        let migration = try MigrationCase(fixture: "Values")
        let before = try migration.snapshot()
        var options = MigrationOptions()
        options.integrityCheck = .full
        options.hooks.afterStep = { database in
            try database.connection.execute(
                #"UPDATE "Thing" SET "decimal" = x'01', "uuid" = x'02', "double" = 'x', "float" = 'x', "text" = x'03'"#)
        }
        let error = try await #require(throws: RemodelError.self) { try await migration.migrate(options) }
        #expect(error.message.split(separator: "\n").count == 1 + MigrationValidator.offendersInAll)
        #expect(!error.message.contains("[integrity-check]"))
        #expect(try migration.snapshot() == before)
    }
}

/// Without hooks, SQLite checks the store being migrated as a whole beside the passes (they carry its pages),
/// and each pass the tables it wrote: damage in a carried table is still found, and named as the store's own.
@Suite struct OriginalFileCheckTests {
    /// A Book row without `_entity` (NOT NULL), written behind SQLite's back into the store to migrate; Book
    /// is carried by both steps, so no pass reads it.
    static func damagedLibrary() throws -> MigrationCase {
        let migration = try MigrationCase(
            bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
        let connection = try SQLiteConnection(path: migration.store, mode: .readWrite)
        guard case .text(let table)? = try connection.scalar("SELECT sql FROM main.sqlite_master WHERE name = 'Book'")
        else {
            throw RemodelError(.io, "no Book table")
        }
        let loose = table.replacingOccurrences(of: "TEXT NOT NULL", with: "TEXT")
        try IntegrityCheckMigrationTests.rewriteSchema(
            connection, "UPDATE main.sqlite_master SET sql = '\(loose)' WHERE name = 'Book'")
        try connection.execute(#"INSERT INTO "Book" ("_pk", "_entity", "title") VALUES (99, NULL, 'no entity')"#)
        try IntegrityCheckMigrationTests.rewriteSchema(
            connection, "UPDATE main.sqlite_master SET sql = '\(table)' WHERE name = 'Book'")
        return migration
    }

    @Test(arguments: [MigrationOptions.IntegrityCheck.quick, .full])
    func damageInACarriedTableIsFound(check: MigrationOptions.IntegrityCheck) async throws {
        let migration = try Self.damagedLibrary()
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.integrityCheck = check
        #expect(options.checksWhatPassesWrite)
        try await expectRefusedUntouched(
            .validationFailed,
            .message(
                "SQLite's check of the store found it damaged, so it was left as it was; recover its data (the sqlite3 shell's `.recover`) or restore a backup, then migrate again:\n  - NULL value in Book._entity [integrity-check]"
            ), folder: migration.folder.path
        ) {
            try await migration.migrate(options)
        }
    }

    /// Each pass's store is then checked in the tables it wrote: the pragmas name them.
    @Test func aPassChecksTheTablesItWrote() {
        #expect(
            MigrationOptions.IntegrityCheck.quick.pragmas(writtenTables: ["Person"], wholeFile: false) == [
                "PRAGMA main.quick_check('sqlite_schema')", "PRAGMA main.quick_check('Person')",
            ])
        #expect(
            MigrationOptions.IntegrityCheck.full.pragmas(writtenTables: ["Person"], wholeFile: false) == [
                "PRAGMA main.integrity_check('sqlite_schema')", "PRAGMA main.integrity_check('Person')",
            ])
        var options = MigrationOptions()
        #expect(options.originalFileCheck == nil, "the default, the written scope, reads no carried page")
        options.integrityCheck = .quick
        #expect(options.originalFileCheck == "PRAGMA main.quick_check")
        options.integrityCheck = .full
        #expect(options.originalFileCheck == "PRAGMA main.integrity_check")
        options.integrityCheck = .writtenTables
        #expect(options.originalFileCheck == nil, "reads no carried page")
        var hooked = MigrationOptions()
        hooked.hooks.afterStep = { _ in }
        #expect(hooked.originalFileCheck == nil, "a hook may change anything: every pass checks its whole file")
        var everything = MigrationOptions()
        everything.checksEverything = true
        #expect(everything.originalFileCheck == nil)
    }

    /// `.writtenTables` reads no carried page: the same damage is carried, as documented.
    @Test func writtenTablesCarriesDamageItDoesNotRead() async throws {
        let migration = try Self.damagedLibrary()
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.integrityCheck = .writtenTables
        let report = try await migration.migrate(options)
        #expect(report.targetVersion == "Library 3")
    }
}

/// `.writtenTables`: SQLite's check reads the tables a step wrote and the schema, not the carried ones.
@Suite struct WrittenTablesCheckTests {
    @Test func theCheckCoversWhatTheStepWroteOnly() async throws {
        let bundle = try MigrationFixtures.library()
        let step = MigrationStep(
            source: try bundle.loadVersion(named: "Library 2"), destination: try bundle.loadVersion(named: "Library 3"),
            mapping: MappingInference.infer(
                from: try bundle.loadVersion(named: "Library 2"), to: try bundle.loadVersion(named: "Library 3"),
                modelName: "Library"))
        let changes = StorageChanges(step: step, policies: [])
        // Person gains an empty column and Book is carried as it is (the schema alone changes: neither is read);
        // Tag and the join table are new.
        #expect(
            changes.writtenTables(of: StoreLayout(version: step.destination)) == [
                "Tag", "_Book_tags", "_RemodelMetadata",
            ])
        #expect(
            MigrationOptions.IntegrityCheck.writtenTables.pragmas(writtenTables: ["Person"]) == [
                "PRAGMA main.quick_check('sqlite_schema')", "PRAGMA main.quick_check('Person')",
            ])
        let migration = try MigrationCase(bundle: bundle, seed: MigrationFixtures.path("Library", "seed.json"))
        var options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        options.integrityCheck = .writtenTables
        let report = try await migration.migrate(options)
        #expect(report.targetVersion == "Library 3")
        expectSameText(try migration.export(), try MigrationFixtures.text("Library", "expected-3.json"))
    }
}
