import Foundation
import Testing

@testable import Remodel

/// Derived attributes kept by the store, end to end on real files through the `remodel` command: computed on
/// create, kept by the app's own SQL, a value the store does not compute refused on import, an export that imports
/// back, the seed generator writing none, and the schema check naming a trigger that is gone.
struct DerivedStoreTests {
    /// A store of ``DerivedModel`` made by `remodel create --seed`.
    private func seeded() throws -> (folder: TemporaryFolder, bundle: String, store: String) {
        let folder = try TemporaryFolder()
        let bundle = try DerivedModel.bundle(in: folder)
        let store = folder.file("library.sqlite")
        let seed = try folder.write(DerivedModel.seed, to: "seed.json")
        let result = try RemodelProcess.run(["create", store, "--model", bundle, "--seed", seed])
        #expect(result.status == 0, "\(result.error)")
        return (folder, bundle, store)
    }

    @Test func createComputesEveryForm() throws {
        let (folder, _, store) = try seeded()
        defer { withExtendedLifetime(folder) {} }
        #expect(
            try DerivedModel.rows(
                "SELECT _pk, shown, nameKey, loud, quiet, bookCount, pageTotal, pageMean, firstPublished, awardsShown, touched IS NOT NULL FROM Person ORDER BY _pk",
                in: store)
                == [
                    "1 | 'Émile Zola' | 'emile zola' | 'ÉMILE ZOLA' | 'émile zola' | 1 | 400 | 400.0 | -2833747200.0 | NULL | 1",
                    "2 | 'Ada' | 'ada' | 'ADA' | 'ada' | 2 | 160 | 80.0 | -3986755200.0 | 3 | 1",
                    "3 | 'grace' | 'grace' | 'GRACE' | 'grace' | 0 | 0 | NULL | NULL | NULL | 1",
                ])
        #expect(
            try DerivedModel.rows(
                "SELECT _pk, authorName, authorKey, authorBooks, roomLabel, tagCount FROM Book ORDER BY _pk", in: store)
                == [
                    "1 | 'Émile Zola' | 'emile zola' | 1 | 'Salle Ⅰ' | 1",
                    "2 | 'Ada' | 'ada' | 2 | NULL | 2",
                    "3 | 'Ada' | 'ada' | 2 | NULL | 0",
                ])
        #expect(
            try DerivedModel.rows("SELECT _pk, bookCount, longest FROM Tag ORDER BY _pk", in: store) == [
                "1 | 2 | 400", "2 | 1 | 60",
            ])
    }

    @Test func theAppsOwnSQLKeepsThemRight() throws {
        let (folder, _, store) = try seeded()
        defer { withExtendedLifetime(folder) {} }
        let app = try SQLiteConnection(path: store, mode: .readWrite)
        // Nana moves from Émile to Grace; Ada is renamed; a link is added to the many-to-many; Sketches goes; the
        // room is relabelled.
        try app.execute("UPDATE Book SET author = 3 WHERE _pk = 1")
        try app.execute("UPDATE Person SET name = 'Ádá Lovelace' WHERE _pk = 2")
        try app.execute("INSERT INTO _Book_tags (source, destination) VALUES (3, 2)")
        try app.execute("UPDATE Book SET pages = 120 WHERE _pk = 3")
        try app.execute("DELETE FROM Book WHERE _pk = 2")
        try app.execute("DELETE FROM _Book_tags WHERE source = 2")
        try app.execute("UPDATE Room SET label = 'Salle Ⅱ' WHERE _pk = 1")
        try app.execute(
            "INSERT INTO Book (_pk, _entity, title, pages, author, shelf) VALUES (7, 'Book', 'Mémoires', 50, 1, 1)")
        #expect(
            try DerivedModel.rows(
                "SELECT _pk, nameKey, loud, bookCount, pageTotal, pageMean FROM Person ORDER BY _pk", in: store)
                == [
                    "1 | 'emile zola' | 'ÉMILE ZOLA' | 1 | 50 | 50.0",
                    "2 | 'ada lovelace' | 'ÁDÁ LOVELACE' | 1 | 120 | 120.0",
                    "3 | 'grace' | 'GRACE' | 1 | 400 | 400.0",
                ])
        #expect(
            try DerivedModel.rows(
                "SELECT _pk, authorName, authorKey, authorBooks, roomLabel, tagCount FROM Book ORDER BY _pk", in: store)
                == [
                    "1 | 'grace' | 'grace' | 1 | 'Salle Ⅱ' | 1",
                    "3 | 'Ádá Lovelace' | 'ada lovelace' | 1 | NULL | 1",
                    "7 | 'Émile Zola' | 'emile zola' | 1 | 'Salle Ⅱ' | 0",
                ])
        #expect(
            try DerivedModel.rows("SELECT _pk, bookCount, longest FROM Tag ORDER BY _pk", in: store) == [
                "1 | 1 | 400", "2 | 1 | 120",
            ])
        // A write of a derived value is refused, by the store's trigger or by SQLite for a generated column.
        for statement in [
            "UPDATE Person SET bookCount = 99 WHERE _pk = 3",
            "INSERT INTO Book (_entity, title, authorName) VALUES ('Book', 'Forged', 'Ada')",
        ] {
            #expect {
                try app.execute(statement)
            } throws: { error in
                "\(error)".contains("is computed by the store") && "\(error)".contains("cannot be written")
            }
        }
        #expect {
            try app.execute("UPDATE Person SET shown = 'x'")
        } throws: { error in
            "\(error)".contains("cannot UPDATE generated column")
        }
    }

    @Test func importRefusesAValueTheStoreDoesNotComputeNamingIt() throws {
        let (folder, bundle, store) = try seeded()
        let before = try RemodelProcess.run(["export", store, "--model", bundle]).output
        let file = try folder.write(
            #"{"Person": [{"_pk": 9, "name": "Hedy", "bookCount": 99}]}"#, to: "more.json")
        let result = try RemodelProcess.run(["import", store, file, "--model", bundle])
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                #"Person _pk 9 attribute "bookCount": the file gives 99, but bookCount is derived (books.@count) and the store computes 0"#
            ), "\(result.error)")
        #expect(try RemodelProcess.run(["export", store, "--model", bundle]).output == before)
        // The value the store computes is taken, and so is a file that leaves it out.
        let right = try folder.write(
            #"{"Person": [{"_pk": 9, "name": "Hedy", "bookCount": 0, "nameKey": "hedy"}, {"_pk": 10, "name": "Ida"}]}"#,
            to: "right.json")
        #expect(try RemodelProcess.run(["import", store, right, "--model", bundle]).status == 0)
        #expect(
            try DerivedModel.rows("SELECT _pk, bookCount, nameKey FROM Person WHERE _pk > 8", in: store) == [
                "9 | 0 | 'hedy'", "10 | 0 | 'ida'",
            ])
    }

    @Test func aSeedsWrongValueIsRefusedAndNothingIsLeft() throws {
        let folder = try TemporaryFolder()
        let bundle = try DerivedModel.bundle(in: folder)
        let seed = try folder.write(
            #"{"Book": [{"_pk": 1, "title": "A", "tagCount": 0, "authorName": "Nobody"}]}"#, to: "seed.json")
        let store = folder.file("library.sqlite")
        let result = try RemodelProcess.run(["create", store, "--model", bundle, "--seed", seed])
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                #"Book _pk 1 attribute "authorName": the file gives 'Nobody', but authorName is derived (author.name) and the store computes NULL"#
            ), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func anExportImportsBack() throws {
        let (folder, bundle, store) = try seeded()
        let export = try RemodelProcess.run(["export", store, "--model", bundle, "--output", folder.file("out.json")])
        #expect(export.status == 0)
        let copy = folder.file("copy.sqlite")
        let created = try RemodelProcess.run(["create", copy, "--model", bundle, "--seed", folder.file("out.json")])
        #expect(created.status == 0, "\(created.error)")
        let first = try RemodelProcess.run(["export", store, "--model", bundle]).output
        #expect(!first.isEmpty)
        #expect(try RemodelProcess.run(["export", copy, "--model", bundle]).output == first)
    }

    @Test func theSeedGeneratorWritesNoDerivedValue() throws {
        let folder = try TemporaryFolder()
        let bundle = try DerivedModel.bundle(in: folder)
        let seed = folder.file("generated.json")
        let generated = try RemodelProcess.run([
            "seed", bundle, "--version", "Library", "--objects", "12", "--output", seed,
        ])
        #expect(generated.status == 0, "\(generated.error)")
        let text = try String(contentsOfFile: seed, encoding: .utf8)
        let derived = [
            "shown", "nameKey", "loud", "quiet", "bookCount", "pageTotal", "pageMean", "firstPublished", "touched",
            "awardsShown", "authorName", "authorKey", "authorBooks", "roomLabel", "tagCount", "longest",
        ]
        for name in derived { #expect(!text.contains("\"\(name)\""), "the seed gives \(name)") }
        let store = folder.file("generated.sqlite")
        let created = try RemodelProcess.run(["create", store, "--model", bundle, "--seed", seed])
        #expect(created.status == 0, "\(created.error)")
        #expect(
            try DerivedModel.rows(
                "SELECT count(*) FROM Person AS p WHERE p.bookCount IS NOT (SELECT count(*) FROM Book AS b WHERE b.author = p._pk)",
                in: store) == ["0"])
    }

    @Test func theSchemaCheckNamesATriggerThatIsGone() throws {
        let (folder, bundle, store) = try seeded()
        defer { withExtendedLifetime(folder) {} }
        try SQLiteConnection(path: store, mode: .readWrite).execute(
            "DROP TRIGGER \"_remodel_derived_Tag_bookCount_5\"")
        let result = try RemodelProcess.run(["export", store, "--model", bundle])
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                #"table "Tag" column "bookCount" is a derived attribute the store no longer keeps as its model says: Tag.bookCount = books.@count: the trigger _remodel_derived_Tag_bookCount_5 that keeps it is missing"#
            ), "\(result.error)")
    }
}
