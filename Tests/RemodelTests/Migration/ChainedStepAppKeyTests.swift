import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A later step of a pass reads what the step before it left in the pass's copy, renaming aside the tables
/// it rebuilds: an app's foreign key to a table that step rebuilds under a new name follows the rename, as
/// it does when the step is a pass of its own. Chain 2 adds a column to Contact (schema only); Chain 3
/// renames Contact to Person and keeps only the people not named Bob (Person rebuilt from Contact).
struct ChainedStepAppKeyTests {
    private static let versions = [
        ("Chain", #"<entity name="Contact"><attribute name="name" optional="YES" attributeType="String"/></entity>"#),
        (
            "Chain 2",
            #"<entity name="Contact"><attribute name="name" optional="YES" attributeType="String"/><attribute name="nick" optional="YES" attributeType="String"/></entity>"#
        ),
        (
            "Chain 3",
            #"<entity name="Person" elementID="Contact"><attribute name="name" optional="YES" attributeType="String"/><attribute name="nick" optional="YES" attributeType="String"/></entity>"#
        ),
    ]

    @Test(arguments: [true, false]) func anAppKeyFollowsATableALaterStepRebuildsUnderANewName(onePass: Bool)
        async throws
    {
        let models = try TemporaryFolder()
        let path = try BundleWriting.write("Chain", in: models.path, versions: Self.versions)
        try FileManager.default.createDirectory(atPath: models.file("Mappings"), withIntermediateDirectories: true)
        _ = try models.write(
            #"<mapping model="Chain" sourceVersion="Chain 2" destinationVersion="Chain 3"><entity source="Contact" destination="Person" filter="$source.name != 'Bob'"/></mapping>"#,
            to: "Mappings/filter.xml")
        let store = try MigrationCase(bundle: try ModelBundle(contentsOf: path), version: "Chain", seed: nil)
        try SQLiteConnection(path: store.store).execute(
            """
            INSERT INTO Contact (_pk, _entity, name) VALUES (1, 'Contact', 'Ada'), (2, 'Contact', 'Bob');
            CREATE TABLE app_notes (id INTEGER PRIMARY KEY, contact INTEGER REFERENCES Contact (_pk), text TEXT);
            INSERT INTO app_notes VALUES (1, 1, 'about Ada');
            """)
        var options = MigrationOptions(mappingsDirectory: models.file("Mappings"))
        options.composesSteps = onePass
        let migrator = Migrator(bundle: store.bundle, options: options)
        #expect(migrator.passes(of: try migrator.plan(storeAt: store.store)) == (onePass ? [1...2] : [1...1, 2...2]))
        try await store.migrate(options)
        let connection = try SQLiteConnection(path: store.store, mode: .readOnly)
        #expect(
            try connection.scalar("SELECT sql FROM sqlite_master WHERE name = 'app_notes'")
                == .text(
                    #"CREATE TABLE app_notes (id INTEGER PRIMARY KEY, contact INTEGER REFERENCES "Person" (_pk), text TEXT)"#
                ))
        #expect(
            try connection.rows("SELECT id, contact, text FROM app_notes") == [
                [.integer(1), .integer(1), .text("about Ada")]
            ])
        #expect(
            try connection.rows(#"SELECT "_pk", name FROM Person ORDER BY "_pk""#) == [[.integer(1), .text("Ada")]])
        #expect(
            try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name LIKE '_remodel_prior_%'")
                == .integer(0))
    }
}
