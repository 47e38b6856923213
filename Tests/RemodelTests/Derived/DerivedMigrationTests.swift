import Foundation
import Testing

@testable import Remodel

/// Migrations of derived attributes: one added is filled by the store, one whose expression changes is computed
/// again, the store's triggers are those of the new version (the app's SQL keeps the values right afterwards),
/// and a migration in one pass and one pass per step agree.
struct DerivedMigrationTests {
    private static let version1 = """
        <entity name="Person" representedClassName="Person">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="touched" optional="YES" attributeType="Date" derived="YES" derivationExpression="now()"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        </entity>
        <entity name="Book" representedClassName="Book">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag" representedClassName="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
        </entity>
        """

    /// Adds a required count (no default: the store fills it), a copy, a text function and a key path through a
    /// to-one, and a count over the many-to-many.
    private static let version2 =
        version1
        .replacingOccurrences(
            of: #"<attribute name="name" optional="YES" attributeType="String"/>"#,
            with: #"""
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="bookCount" attributeType="Integer 32" derived="YES" derivationExpression="books.@count" usesScalarValueType="YES"/>
                <attribute name="nameKey" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(name)"/>
                <attribute name="shown" optional="YES" attributeType="String" derived="YES" derivationExpression="name"/>
                """#
        )
        .replacingOccurrences(
            of: #"<attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>"#,
            with: #"""
                <attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <attribute name="authorName" optional="YES" attributeType="String" derived="YES" derivationExpression="author.name"/>
                """#
        )
        .replacingOccurrences(
            of: #"<attribute name="label" optional="YES" attributeType="String"/>"#,
            with: #"""
                <attribute name="label" optional="YES" attributeType="String"/>
                <attribute name="bookCount" attributeType="Integer 32" derived="YES" derivationExpression="books.@count" usesScalarValueType="YES"/>
                """#)

    /// Changes three expressions: the count becomes a sum, the key becomes upper case, the copy a copy of another
    /// attribute (a generated column computing something else: its table is rebuilt).
    private static let version3 =
        version2
        .replacingOccurrences(
            of: #"derivationExpression="books.@count" usesScalarValueType="YES"/>"#,
            with: #"derivationExpression="books.pages.@sum" usesScalarValueType="YES"/>"#
        )
        .replacingOccurrences(of: "canonical:(name)", with: "uppercase:(name)")
        .replacingOccurrences(
            of:
                #"<attribute name="shown" optional="YES" attributeType="String" derived="YES" derivationExpression="name"/>"#,
            with: #"""
                <attribute name="alias" optional="YES" attributeType="String"/>
                <attribute name="shown" optional="YES" attributeType="String" derived="YES" derivationExpression="alias"/>
                """#)

    private static let seed = """
        {"Person": [{"_pk": 1, "name": "Émile"}, {"_pk": 2, "name": "Ada"}],
         "Book": [{"_pk": 1, "title": "Nana", "pages": 400, "author": 1, "tags": [1]},
                  {"_pk": 2, "title": "Notes", "pages": 60, "author": 2, "tags": [1, 2]},
                  {"_pk": 3, "title": "Sketches", "pages": 100, "author": 2}],
         "Tag": [{"_pk": 1, "label": "classic"}, {"_pk": 2, "label": "science"}]}
        """

    @Test func aMigrationFillsWhatItAddsAndTheAppsSQLThenKeepsIt() async throws {
        let roads = try TwoRoads(
            "Library", versions: [("Library", Self.version1), ("Library 2", Self.version2)], seed: Self.seed,
            app: ["UPDATE Book SET author = 1 WHERE _pk = 3"])
        let touched = try DerivedModel.rows("SELECT _pk, touched FROM Person ORDER BY _pk", in: roads.original)
        try await roads.migrateBoth()
        let store = roads.store(composed: true)
        #expect(
            try DerivedModel.rows("SELECT _pk, bookCount, nameKey, shown FROM Person ORDER BY _pk", in: store)
                == ["1 | 2 | 'emile' | 'Émile'", "2 | 1 | 'ada' | 'Ada'"])
        #expect(
            try DerivedModel.rows("SELECT _pk, authorName FROM Book ORDER BY _pk", in: store)
                == ["1 | 'Émile'", "2 | 'Ada'", "3 | 'Émile'"])
        #expect(try DerivedModel.rows("SELECT _pk, bookCount FROM Tag ORDER BY _pk", in: store) == ["1 | 2", "2 | 1"])
        // The time a `now()` attribute had is carried.
        #expect(try DerivedModel.rows("SELECT _pk, touched FROM Person ORDER BY _pk", in: store) == touched)
        // The migrated store's triggers keep the new attributes as the app writes.
        let app = try SQLiteConnection(path: store, mode: .readWrite)
        try app.execute("UPDATE Book SET author = 2 WHERE _pk = 1")
        try app.execute("UPDATE Person SET name = 'Ádá' WHERE _pk = 2")
        try app.execute("DELETE FROM _Book_tags WHERE source = 2 AND destination = 1")
        #expect(
            try DerivedModel.rows("SELECT _pk, bookCount, nameKey, shown FROM Person ORDER BY _pk", in: store)
                == ["1 | 1 | 'emile' | 'Émile'", "2 | 2 | 'ada' | 'Ádá'"])
        #expect(
            try DerivedModel.rows("SELECT _pk, authorName FROM Book ORDER BY _pk", in: store)
                == ["1 | 'Ádá'", "2 | 'Ádá'", "3 | 'Émile'"])
        #expect(try DerivedModel.rows("SELECT _pk, bookCount FROM Tag ORDER BY _pk", in: store) == ["1 | 1", "2 | 1"])
    }

    @Test func anExpressionThatChangesIsComputedAgainOnBothRoads() async throws {
        let roads = try TwoRoads(
            "Library",
            versions: [("Library", Self.version1), ("Library 2", Self.version2), ("Library 3", Self.version3)],
            seed: Self.seed, app: ["UPDATE Person SET name = 'Zoë' WHERE _pk = 2"])
        try await roads.migrateBoth()
        let store = roads.store(composed: false)
        #expect(
            try DerivedModel.rows("SELECT _pk, bookCount, nameKey, shown FROM Person ORDER BY _pk", in: store)
                == ["1 | 400 | 'ÉMILE' | NULL", "2 | 160 | 'ZOË' | NULL"])
        #expect(
            try DerivedModel.rows("SELECT _pk, bookCount FROM Tag ORDER BY _pk", in: store) == ["1 | 460", "2 | 60"])
        let app = try SQLiteConnection(path: store, mode: .readWrite)
        try app.execute("UPDATE Person SET alias = 'Z' WHERE _pk = 2")
        try app.execute("UPDATE Book SET pages = 10 WHERE _pk = 2")
        #expect(
            try DerivedModel.rows("SELECT _pk, bookCount, shown FROM Person ORDER BY _pk", in: store)
                == ["1 | 400 | NULL", "2 | 110 | 'Z'"])
        #expect(
            try DerivedModel.rows("SELECT _pk, bookCount FROM Tag ORDER BY _pk", in: store) == ["1 | 410", "2 | 10"])
    }

    @Test func inferenceLeavesThemToTheStore() throws {
        let folder = try TemporaryFolder()
        let path = try BundleWriting.write(
            "Library", in: folder.path, versions: [("Library", Self.version1), ("Library 2", Self.version2)])
        // No mapping file: the suite's working directory has the sample's Mappings folder, for another "Library".
        let diff = try RemodelProcess.run([
            "diff", path, "--from", "Library", "--to", "Library 2", "--mappings", folder.path,
        ])
        #expect(diff.status == 0, "\(diff.error)")
        #expect(diff.output.contains("+ bookCount (Integer 32): derived: computed by the store (books.@count)"))
        #expect(diff.output.contains("+ authorName (String): derived: computed by the store (author.name)"))
        #expect(!diff.output.contains("needs a mapping"))
        // Going back drops them without a word of lost data: the store computed them.
        let back = try RemodelProcess.run(["diff", path, "--from", "Library 2", "--to", "Library"])
        #expect(back.status == 0)
        #expect(!back.output.contains("data-dropped"), "\(back.output)")
        #expect(!back.error.contains("data-dropped"), "\(back.error)")
    }
}
