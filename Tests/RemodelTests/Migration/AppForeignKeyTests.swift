import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Foreign keys in the app's own tables (issue 21, class 3): phase 3 checks what the step wrote, so a key
/// the app left dangling (foreign keys never turned on) does not stop an unrelated step; a key to a table
/// the step carries under a new name follows it; one to a table the step removes is refused at planning;
/// one the step leaves dangling is named by the app's table and row. App 2 renames Contact to Person
/// (carried); App 3 keeps only the Person objects not named Bob (Person rebuilt); App 4 removes Person.
struct AppForeignKeyTests {
    private static let versions = [
        (
            "App",
            #"<entity name="Contact"><attribute name="name" optional="YES" attributeType="String"/></entity><entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
        ),
        (
            "App 2",
            #"<entity name="Person" elementID="Contact"><attribute name="name" optional="YES" attributeType="String"/></entity><entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
        ),
        (
            "App 3",
            #"<entity name="Person" versionHashModifier="3"><attribute name="name" optional="YES" attributeType="String"/></entity><entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
        ),
        (
            "App 4",
            #"<entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/><attribute name="color" optional="YES" attributeType="String"/></entity>"#
        ),
    ]
    private static let seed =
        #"{"Contact": [{"_pk": 1, "name": "Ada"}, {"_pk": 2, "name": "Bob"}], "Tag": [{"_pk": 1, "label": "x"}]}"#

    /// A store at `version` changed by `sql`, and the folder of its model and mapping file (kept alive with it).
    private func store(at version: String = "App", changedBy sql: String) throws -> (
        MigrationCase, models: TemporaryFolder
    ) {
        let models = try TemporaryFolder()
        let path = try BundleWriting.write("App", in: models.path, versions: Self.versions)
        try FileManager.default.createDirectory(atPath: models.file("Mappings"), withIntermediateDirectories: true)
        _ = try models.write(
            #"<mapping model="App" sourceVersion="App 2" destinationVersion="App 3"><entity source="Person" destination="Person" filter="$source.name != 'Bob'"/></mapping>"#,
            to: "Mappings/filter.xml")
        let store = try MigrationCase(bundle: try ModelBundle(contentsOf: path), version: version, seed: nil)
        try SQLiteConnection(path: store.store).execute(sql)
        return (store, models)
    }

    @Test func aKeyTheAppLeftDanglingDoesNotStopAStepThatDoesNotTouchIt() async throws {
        // Foreign keys were never turned on: app_log row 2 points at Contact 99, which never existed.
        let (store, models) = try store(
            changedBy: """
                INSERT INTO Contact (_pk, _entity, name) VALUES (1, 'Contact', 'Ada');
                CREATE TABLE app_log (id INTEGER PRIMARY KEY, contact INTEGER REFERENCES Contact (_pk), line TEXT);
                INSERT INTO app_log VALUES (1, 1, 'fine'), (2, 99, 'dangling since the app wrote it');
                """)
        var options = MigrationOptions(mappingsDirectory: models.file("Mappings"))
        options.targetVersion = "App 2"
        try await store.migrate(options)
        let connection = try SQLiteConnection(path: store.store, mode: .readOnly)
        #expect(
            try connection.rows("SELECT id, contact, line FROM app_log ORDER BY id") == [
                [.integer(1), .integer(1), .text("fine")],
                [.integer(2), .integer(99), .text("dangling since the app wrote it")],
            ])
        // The carried rename took the app's key with it.
        #expect(
            try connection.scalar("SELECT sql FROM sqlite_master WHERE name = 'app_log'")
                == .text(
                    #"CREATE TABLE app_log (id INTEGER PRIMARY KEY, contact INTEGER REFERENCES "Person" (_pk), line TEXT)"#
                ))
        #expect(try connection.rows("SELECT _pk, name FROM Person") == [[.integer(1), .text("Ada")]])
    }

    @Test func aKeyToATableTheStepRemovesIsRefusedAtPlanning() async throws {
        let (store, models) = try store(
            at: "App 3",
            changedBy: """
                INSERT INTO Person (_pk, _entity, name) VALUES (1, 'Person', 'Ada');
                CREATE TABLE app_notes (id INTEGER PRIMARY KEY, person INTEGER REFERENCES Person (_pk), text TEXT);
                INSERT INTO app_notes VALUES (1, 1, 'about Ada');
                """)
        let message = RefusalText.message(
            "the app's foreign key app_notes.person references Person, a table App 3 → App 4 removes (or splits): its rows would point at nothing. Change or drop the foreign key before migrating and add it again for the new version; Remodel does not change it silently"
        )
        let options = MigrationOptions(mappingsDirectory: models.file("Mappings"))
        try expectRefusedUntouched(.migrationNotPlannable, message, folder: store.folder.path) {
            _ = try Migrator(bundle: store.bundle, options: options).plan(storeAt: store.store)
        }
        try await expectRefusedUntouched(.migrationNotPlannable, message, folder: store.folder.path) {
            try await store.migrate(options)
        }
    }

    /// However the app spells its key: phase 3 asks only tables whose text declares one for their keys.
    @Test(arguments: [
        "person INTEGER REFERENCES Person (_pk), text TEXT",
        "person INTEGER references Person (_pk), text TEXT",
        "person INTEGER, text TEXT, Foreign Key (person) References Person (_pk)",
    ])
    func aKeyTheStepLeavesDanglingIsNamedByTheAppsTableAndRow(columns: String) async throws {
        let (store, models) = try store(
            at: "App 2",
            changedBy: """
                INSERT INTO Person (_pk, _entity, name) VALUES (1, 'Person', 'Ada'), (2, 'Person', 'Bob');
                CREATE TABLE app_notes (id INTEGER PRIMARY KEY, \(columns));
                INSERT INTO app_notes VALUES (1, 1, 'about Ada'), (7, 2, 'about Bob');
                """)
        var options = MigrationOptions(mappingsDirectory: models.file("Mappings"))
        options.targetVersion = "App 3"
        // The header blames the app's key, not the model's rules.
        try await expectRefusedUntouched(
            .validationFailed,
            .message(
                "the data migrated from App 2 to App 3 breaks the app's foreign keys, so the store was left as it was:\n  - app_notes \"person\": row 7 of the app's table app_notes references a missing row of Person (its foreign key person → Person): the step removed or re-keyed the object it pointed to; delete or change that row (or its foreign key) before migrating [foreign-key-check]"
            ), folder: store.folder.path
        ) { try await store.migrate(options) }
    }
}
