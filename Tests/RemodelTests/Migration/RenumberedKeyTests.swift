import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Keys that change are followed (DESIGN.md, Migration 11; issue 28, class 1). Pets 2 moves Cat under Pet:
/// their tables merge into Pet's. Xcode writes Cat before Pet, and before this the step numbered Cat's
/// objects first, so an app's visit to the dog Rex named the cat Tom. Now the table that stays keeps its keys
/// and the merged objects are numbered after them; what the app declared still reaches the same objects, and
/// a reference to the table merged away is refused at planning, naming it. Pets 3 adds an attribute, so
/// that the two roads differ.
struct RenumberedKeyTests {
    private static let pet =
        #"<entity name="Pet"><attribute name="name" optional="YES" attributeType="String"/><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/></entity>"#
    private static func owner(_ extra: String) -> String {
        #"<entity name="Owner"><attribute name="name" optional="YES" attributeType="String"/>\#(extra)<relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/></entity>"#
    }
    private static let versions = [
        (
            "Pets",
            #"<entity name="Cat"><attribute name="name" optional="YES" attributeType="String"/></entity>"# + pet
                + owner("")
        ),
        ("Pets 2", #"<entity name="Cat" parentEntity="Pet"/>"# + pet + owner("")),
        (
            "Pets 3",
            #"<entity name="Cat" parentEntity="Pet"/>"# + pet
                + owner(#"<attribute name="city" optional="YES" attributeType="String"/>"#)
        ),
    ]
    private static let seed = """
        {"Cat": [{"_pk": 1, "name": "Tom"}, {"_pk": 2, "name": "Kit"}],
         "Pet": [{"_pk": 1, "name": "Rex", "owner": 1}, {"_pk": 2, "name": "Max", "owner": 1}, {"_pk": 5, "name": "Bo"}],
         "Owner": [{"_pk": 1, "name": "Ann"}]}
        """

    private static func roads(app: [String]) throws -> TwoRoads {
        try TwoRoads("Pets", versions: versions, seed: seed, app: app)
    }

    @Test func theTableThatStaysKeepsItsKeysAndWhatTheAppDeclaredFollows() async throws {
        let roads = try Self.roads(app: [
            "CREATE TABLE app_visit (id INTEGER PRIMARY KEY, pet INTEGER REFERENCES Pet (_pk), note TEXT)",
            "INSERT INTO app_visit (pet, note) VALUES (1, 'rex the dog'), (5, 'bo')",
            "ALTER TABLE Owner ADD COLUMN favourite INTEGER REFERENCES Pet (_pk)",
            "UPDATE Owner SET favourite = 2",
            "CREATE VIRTUAL TABLE pet_search USING fts5(name, content='Pet', content_rowid='_pk')",
            "INSERT INTO pet_search (pet_search) VALUES ('rebuild')",
        ])
        let export = try await roads.migrateBoth()
        expectSameText(
            export,
            """
            {
              "Cat": [
                {"_pk": 6, "name": "Tom", "owner": null},
                {"_pk": 7, "name": "Kit", "owner": null}
              ],
              "Owner": [
                {"_pk": 1, "name": "Ann", "city": null, "pets": [1, 2]}
              ],
              "Pet": [
                {"_pk": 1, "name": "Rex", "owner": 1},
                {"_pk": 2, "name": "Max", "owner": 1},
                {"_pk": 5, "name": "Bo", "owner": null}
              ]
            }

            """)
        for composed in [true, false] {
            #expect(
                try roads.rows(
                    "SELECT v.note, p.name FROM app_visit AS v JOIN Pet AS p ON p._pk = v.pet ORDER BY v.id",
                    composed: composed) == [[.text("rex the dog"), .text("Rex")], [.text("bo"), .text("Bo")]])
            #expect(
                try roads.rows("SELECT p.name FROM Owner AS o JOIN Pet AS p ON p._pk = o.favourite", composed: composed)
                    == [[.text("Max")]])
            #expect(
                try roads.rows(
                    "SELECT p.name FROM pet_search JOIN Pet AS p ON p._pk = pet_search.rowid WHERE pet_search MATCH 'rex'",
                    composed: composed) == [[.text("Rex")]])
        }
    }

    /// The dry run and `status` say which table a step renumbers, and what cannot be followed.
    @Test func thePlanNamesTheTablesAStepRenumbers() throws {
        let roads = try Self.roads(app: [])
        let plan = try Migrator(bundle: roads.bundle).plan(storeAt: roads.original)
        let lines = plan.description.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "  Renumbers Pet: objects from Cat get new keys (_pk), numbered after those of Pet, which keep theirs"))
        #expect(
            lines.contains(
                "Keys a step renumbers are followed where the store declares them (the model's relationships, the app's foreign keys and REFERENCES, which are refused where they name a table merged away); a key kept where nothing declares it (an INTEGER column without REFERENCES, a key outside the store) cannot be known and is not changed."
            ))
    }

    /// `remodel status` and `remodel migrate --dry-run` print the same lines.
    @Test func statusAndTheDryRunNameTheTablesAStepRenumbers() throws {
        let roads = try Self.roads(app: [])
        for arguments in [
            ["status", roads.original, "--model", roads.bundle.path],
            ["migrate", roads.original, "--model", roads.bundle.path, "--dry-run"],
        ] {
            let (status, output, error) = try RemodelProcess.run(arguments)
            #expect(status == 0, "\(error)")
            #expect(
                output.contains(
                    "\n  Renumbers Pet: objects from Cat get new keys (_pk), numbered after those of Pet, which keep theirs\n"
                ),
                "\(output)")
        }
    }

    /// A foreign key to Cat, whose objects Pets 2 merges into Pet under new keys, would name other objects:
    /// refused at planning, naming the key, with the store left as it was.
    @Test func aForeignKeyToATableMergedAwayIsRefusedAtPlanning() async throws {
        let roads = try Self.roads(app: [
            "CREATE TABLE app_toy (id INTEGER PRIMARY KEY, cat INTEGER REFERENCES Cat (_pk))",
            "INSERT INTO app_toy (cat) VALUES (1)",
        ])
        try await roads.expectRefusal(
            "the app's foreign key app_toy.cat references Cat, whose objects Pets → Pets 2 merges into Pet with new keys (_pk): its rows would point at other objects or at nothing. Map its values to the new keys (the step's plan names the tables it renumbers) or drop the foreign key before migrating; Remodel does not change it silently"
        )
    }

    /// An FTS index over Cat reads its content by Cat's keys: refused at planning, naming it.
    @Test func anFTSIndexOverATableMergedAwayIsRefusedAtPlanning() async throws {
        let roads = try Self.roads(app: [
            "CREATE VIRTUAL TABLE cat_search USING fts5(name, content='Cat', content_rowid='_pk')",
            "INSERT INTO cat_search (cat_search) VALUES ('rebuild')",
        ])
        try await roads.expectRefusal(
            "the app's table cat_search does not fit the schema Pets → Pets 2 leaves (no such table: main.Cat): it names a table or column the step renames or drops. Drop it before migrating and create it again for the new version; Remodel does not drop it silently"
        )
    }

    /// NOTE moved under Note: their tables (NOTE and Note_table, SQLite's names being the same in any case)
    /// merge into Note, where Note's objects stay and NOTE's get new keys. A foreign key or an FTS index naming
    /// NOTE finds a table of that name afterwards, but not the same objects: refused, naming it.
    @Test(arguments: [
        (
            "CREATE TABLE app_ref (id INTEGER PRIMARY KEY, note INTEGER REFERENCES NOTE (_pk))",
            "the app's foreign key app_ref.note references NOTE, whose objects Twins → Twins 2 merges into Note with new keys (_pk): its rows would point at other objects or at nothing. Map its values to the new keys (the step's plan names the tables it renumbers) or drop the foreign key before migrating; Remodel does not change it silently"
        ),
        (
            "CREATE VIRTUAL TABLE app_search USING fts5(text, content='NOTE', content_rowid='_pk')",
            "the app's table app_search indexes NOTE by its keys (content=), and Twins → Twins 2 merges the objects of NOTE into Note with new keys (_pk): the index would point at other objects. Drop it before migrating and build it again for the new version (its 'rebuild' command); Remodel does not change it silently"
        ),
    ])
    func aReferenceToATableRenumberedUnderItsOwnNameInAnotherCaseIsRefused(app: String, message: String) async throws {
        let text = #"<attribute name="text" optional="YES" attributeType="String"/>"#
        let roads = try TwoRoads(
            "Twins",
            versions: [
                ("Twins", #"<entity name="NOTE">\#(text)</entity><entity name="Note">\#(text)</entity>"#),
                ("Twins 2", #"<entity name="NOTE" parentEntity="Note"/><entity name="Note">\#(text)</entity>"#),
            ],
            seed: #"{"NOTE": [{"_pk": 1, "text": "loud"}], "Note": [{"_pk": 1, "text": "quiet"}]}"#, app: [app])
        try await roads.expectRefusal(message)
    }

    /// The table that stays under a new name (Pet renamed Animal while Cat moves under it) keeps its keys, and
    /// the app's foreign key follows it to its new name.
    @Test func theTableThatStaysKeepsItsKeysUnderANewName() async throws {
        let animal =
            #"<entity name="Animal" elementID="Pet"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let roads = try TwoRoads(
            "Zoo",
            versions: [
                (
                    "Zoo",
                    #"<entity name="Cat"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
                        + #"<entity name="Pet"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
                ),
                ("Zoo 2", animal + #"<entity name="Cat" parentEntity="Animal"/>"#),
                ("Zoo 3", animal + #"<entity name="Cat" parentEntity="Animal"/><entity name="Keeper"/>"#),
            ],
            seed:
                #"{"Cat": [{"_pk": 1, "name": "Tom"}], "Pet": [{"_pk": 1, "name": "Rex"}, {"_pk": 2, "name": "Bo"}]}"#,
            app: [
                "CREATE TABLE app_visit (id INTEGER PRIMARY KEY, pet INTEGER REFERENCES Pet (_pk))",
                "INSERT INTO app_visit (pet) VALUES (1), (2)",
            ])
        _ = try await roads.migrateBoth()
        for composed in [true, false] {
            #expect(
                try roads.rows(
                    "SELECT a.name, a._entity FROM app_visit AS v JOIN Animal AS a ON a._pk = v.pet ORDER BY v.id",
                    composed: composed) == [[.text("Rex"), .text("Animal")], [.text("Bo"), .text("Animal")]])
            #expect(
                try roads.rows("SELECT \"table\" FROM pragma_foreign_key_list('app_visit')", composed: composed) == [
                    [.text("Animal")]
                ])
            #expect(
                try roads.rows("SELECT _pk, name FROM Animal WHERE _entity = 'Cat'", composed: composed) == [
                    [.integer(3), .text("Tom")]
                ])
        }
    }
}
