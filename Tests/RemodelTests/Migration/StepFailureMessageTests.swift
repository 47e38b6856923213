import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// No refusal a user sees is SQLite's raw words on the temporary `.remodel-migrating` file (issue 21,
/// class 6): a value the step writes that an app's unique index or CHECK constraint refuses is named by
/// the app's object, the entity and attribute, and the store, with what to do. App 2 makes Person.nick
/// required with the default "anon" (filled into every nil) and Person.age a String (Person rebuilt).
struct StepFailureMessageTests {
    /// The same three versions as the message tests' (``MessagesNameTheUsersFileTests/appVersions``).
    private static let versions = MessagesNameTheUsersFileTests.appVersions
    private static let seed =
        #"{"Person": [{"_pk": 1, "name": "Ada", "age": 36}, {"_pk": 2, "name": "Grace", "age": 85}]}"#

    private func store(at version: String, changedBy sql: String) throws -> (MigrationCase, models: TemporaryFolder) {
        let models = try TemporaryFolder()
        let bundle = try ModelBundle(
            contentsOf: try BundleWriting.write("App", in: models.path, versions: Self.versions))
        let store = try MigrationCase(
            bundle: bundle, version: version,
            seed: version == "App" ? try models.write(Self.seed, to: "seed.json") : nil)
        try SQLiteConnection(path: store.store).execute(sql)
        return (store, models)
    }

    @Test func aDefaultFillThatBreaksAnAppsUniqueIndexNamesTheIndexAndTheAttribute() async throws {
        let (store, models) = try store(at: "App", changedBy: "CREATE UNIQUE INDEX app_nick_unique ON Person (nick)")
        try await expectRefusedUntouched(
            .validationFailed,
            .description(
                "\(store.store): the app's unique index app_nick_unique on Person (nick) does not allow the values App → App 2 gives attribute Person.nick: several objects get the same value (a default filled in, or a mapping's value), so SQLite refused them (UNIQUE constraint failed: Person.nick) and the store was left as it was. Give those objects values that differ (in a mapping file), or drop the index before migrating and create it again after"
            ),
            folder: store.folder.path
        ) { try await store.migrate(MigrationOptions(targetVersion: "App 2")) }
        _ = models
    }

    @Test func anAppCheckConstraintThatRefusesTheNewValuesIsNamed() async throws {
        let (store, models) = try store(
            at: "App 2",
            changedBy: """
                INSERT INTO Person (_pk, _entity, name, nick, age) VALUES (1, 'Person', 'Ada', 'ada', 36);
                ALTER TABLE Person ADD COLUMN app_flag INTEGER CHECK (typeof(age) = 'integer');
                """)
        try await expectRefusedUntouched(
            .validationFailed,
            .description(
                "\(store.store): the app's CHECK constraint (typeof(age) = 'integer') on table Person does not allow what App 2 → App 3 writes there, so SQLite refused it and the store was left as it was. Change or drop the constraint before migrating (it may name a column whose type or values the new version changes) and add it again after"
            ),
            folder: store.folder.path
        ) { try await store.migrate(MigrationOptions(targetVersion: "App 3")) }
        _ = models
    }
}
