import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// What the app added on a table a step removes or rebuilds either arrives, or the plan refuses naming it
/// (issue 21, class 1): the plan and the result never disagree. App 2 removes Note and the many-to-many
/// Book.tags (its join table), and adds the entity Label.
struct AppSchemaFitTests {
    private static let versions = [
        (
            "App",
            #"<entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
                + #"<entity name="Book"><attribute name="title" optional="YES" attributeType="String"/><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/></entity>"#
                + #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/><relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/></entity>"#
        ),
        (
            "App 2",
            #"<entity name="Book"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
                + #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
                + #"<entity name="Label"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
        ),
    ]
    private static let seed = """
        {"Note": [{"_pk": 1, "text": "n1"}, {"_pk": 2, "text": "n2"}],
         "Book": [{"_pk": 1, "title": "Notes", "tags": [1]}], "Tag": [{"_pk": 1, "name": "math", "books": [1]}]}
        """

    /// A store at App with objects, changed by `sql` as the app would change it.
    private func store(changedBy sql: String) throws -> MigrationCase {
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(
            contentsOf: try BundleWriting.write("App", in: folder.path, versions: Self.versions))
        let store = try MigrationCase(bundle: bundle, seed: try folder.write(Self.seed, to: "seed.json"))
        try SQLiteConnection(path: store.store).execute(sql)
        return store
    }

    /// Planning (as `status` and `--dry-run` do) and migrating both refuse with `message`, changing nothing.
    private func expectRefusedAtPlanning(_ store: MigrationCase, _ message: String) async throws {
        try expectRefusedUntouched(.migrationNotPlannable, .message(message), folder: store.folder.path) {
            _ = try Migrator(bundle: store.bundle).plan(storeAt: store.store)
        }
        try await expectRefusedUntouched(.migrationNotPlannable, .message(message), folder: store.folder.path) {
            try await store.migrate()
        }
    }

    @Test func anAppColumnOnTheTableOfARemovedEntityIsRefusedNotDropped() async throws {
        let store = try store(
            changedBy: "ALTER TABLE Note ADD COLUMN app_synced_at REAL; UPDATE Note SET app_synced_at = 1000 + _pk")
        try await expectRefusedAtPlanning(
            store,
            "the app's column Note.app_synced_at is on the table of entity Note, whose objects App → App 2 does not carry into any table (the entity is removed): its values would be lost. Copy them into a table of the app's own (or drop the column) before migrating; Remodel does not drop them silently"
        )
    }

    @Test func anAppColumnOnARemovedJoinTableIsRefusedNotDropped() async throws {
        let store = try store(changedBy: "ALTER TABLE _Book_tags ADD COLUMN weight INTEGER DEFAULT 1")
        try await expectRefusedAtPlanning(
            store,
            "the app's column _Book_tags.weight is on the join table _Book_tags, which App → App 2 rebuilds or removes: its values would be lost. Copy them into a table of the app's own (or drop the column) before migrating; Remodel does not drop them silently"
        )
    }

    @Test func anAppFullTextIndexOverARemovedTableIsRefused() async throws {
        let store = try store(
            changedBy: """
                CREATE VIRTUAL TABLE note_search USING fts5(text, content='Note', content_rowid='_pk');
                INSERT INTO note_search (note_search) VALUES ('rebuild');
                """)
        try await expectRefusedAtPlanning(
            store,
            "the app's table note_search does not fit the schema App → App 2 leaves (no such table: main.Note): it names a table or column the step renames or drops. Drop it before migrating and create it again for the new version; Remodel does not drop it silently"
        )
    }

    @Test func anAppTableNamedLikeAnAddedEntityIsRefusedNamingIt() async throws {
        let store = try store(
            changedBy:
                "CREATE TABLE label (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO label (text) VALUES ('kept')")
        try await expectRefusedAtPlanning(
            store,
            "the app's table label has the name of the table Label that App → App 2 gives the model; rename the app's table before migrating (its rows, indexes and triggers go with it)"
        )
    }

    @Test func anAppColumnOnAKeptTableStillArrivesWithItsValues() async throws {
        let store = try store(changedBy: "ALTER TABLE Book ADD COLUMN app_rank INTEGER; UPDATE Book SET app_rank = 7")
        try await store.migrate()
        let rows = try SQLiteConnection(path: store.store, mode: .readOnly).rows(
            "SELECT _pk, title, app_rank FROM Book ORDER BY _pk")
        #expect(rows == [[.integer(1), .text("Notes"), .integer(7)]])
    }
}
