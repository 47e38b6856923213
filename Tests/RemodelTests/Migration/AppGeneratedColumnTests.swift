import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// An app's generated column (`GENERATED ALWAYS AS (…) VIRTUAL`) on a model table that a step rebuilds is
/// declared as generated again, with its index, or refused at planning naming it when the step drops what
/// it computes from (issue 21, class 2). App 2 changes Person.age from Integer 32 to String (Person is
/// rebuilt) and removes Person.nick.
struct AppGeneratedColumnTests {
    private static let versions = [
        (
            "App",
            #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="Integer 32"/><attribute name="nick" optional="YES" attributeType="String"/></entity>"#
        ),
        (
            "App 2",
            #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="String"/></entity>"#
        ),
    ]
    private static let seed =
        #"{"Person": [{"_pk": 1, "name": "Ada", "age": 36, "nick": "ada"}, {"_pk": 2, "name": "Grace", "age": 85}]}"#

    private func store(changedBy sql: String) throws -> MigrationCase {
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(
            contentsOf: try BundleWriting.write("App", in: folder.path, versions: Self.versions))
        let store = try MigrationCase(bundle: bundle, seed: try folder.write(Self.seed, to: "seed.json"))
        try SQLiteConnection(path: store.store).execute(sql)
        return store
    }

    @Test func aGeneratedColumnOnARebuiltTableIsDeclaredAgainWithItsIndex() async throws {
        let store = try store(
            changedBy: """
                ALTER TABLE Person ADD COLUMN app_name_key TEXT GENERATED ALWAYS AS (lower(name)) VIRTUAL;
                CREATE INDEX app_name_key_index ON Person (app_name_key);
                ALTER TABLE Person ADD COLUMN app_score INTEGER; UPDATE Person SET app_score = 10 * _pk;
                """)
        try await store.migrate()
        let connection = try SQLiteConnection(path: store.store, mode: .readOnly)
        #expect(
            try connection.rows("SELECT _pk, name, age, app_name_key, app_score FROM Person ORDER BY _pk") == [
                [.integer(1), .text("Ada"), .text("36"), .text("ada"), .integer(10)],
                [.integer(2), .text("Grace"), .text("85"), .text("grace"), .integer(20)],
            ])
        // Still generated (hidden 2: virtual), and its index is there and used.
        #expect(
            try connection.rows("SELECT hidden FROM pragma_table_xinfo('Person') WHERE name = 'app_name_key'") == [
                [.integer(2)]
            ])
        #expect(
            try connection.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'app_name_key_index'")
                == [[.text("app_name_key_index")]])
        #expect(try connection.rows("SELECT _pk FROM Person WHERE app_name_key = 'grace'") == [[.integer(2)]])
        #expect(try connection.rows("PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test func aGeneratedColumnOverADroppedColumnIsRefusedAtPlanningNamingIt() async throws {
        let store = try store(
            changedBy: "ALTER TABLE Person ADD COLUMN app_nick_key TEXT GENERATED ALWAYS AS (upper(nick)) VIRTUAL")
        let message = RefusalText.message(
            "the app's column Person.app_nick_key (app_nick_key TEXT GENERATED ALWAYS AS (upper(nick)) VIRTUAL) does not fit the table App → App 2 leaves (no such column: nick): it names a column the step renames or drops. Drop it before migrating and add it again for the new version; Remodel does not drop it silently"
        )
        try expectRefusedUntouched(.migrationNotPlannable, message, folder: store.folder.path) {
            _ = try Migrator(bundle: store.bundle).plan(storeAt: store.store)
        }
        try await expectRefusedUntouched(.migrationNotPlannable, message, folder: store.folder.path) {
            try await store.migrate()
        }
    }
}
