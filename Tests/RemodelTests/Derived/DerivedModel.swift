import Foundation
import Testing

@testable import Remodel

/// A library model with a derived attribute of every form the store keeps: generated copies (one on a sub-entity,
/// sharing its table), text functions of the object's own and a related object's attributes, key paths through one
/// and two to-ones, aggregates over an inverse column and over a many-to-many join table (one reached through a
/// to-one), and `now()`.
enum DerivedModel {
    static let entities = """
        <entity name="Person" representedClassName="Person">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="shown" optional="YES" attributeType="String" derived="YES" derivationExpression="name"/>
            <attribute name="nameKey" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(name)"/>
            <attribute name="loud" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(name)"/>
            <attribute name="quiet" optional="YES" attributeType="String" derived="YES" derivationExpression="lowercase:(name)"/>
            <attribute name="bookCount" attributeType="Integer 32" derived="YES" derivationExpression="books.@count" usesScalarValueType="YES"/>
            <attribute name="pageTotal" attributeType="Integer 64" derived="YES" derivationExpression="books.pages.@sum" usesScalarValueType="YES"/>
            <attribute name="pageMean" optional="YES" attributeType="Double" derived="YES" derivationExpression="average:(books.pages)" usesScalarValueType="YES"/>
            <attribute name="firstPublished" optional="YES" attributeType="Date" derived="YES" derivationExpression="books.published.@min"/>
            <attribute name="touched" optional="YES" attributeType="Date" derived="YES" derivationExpression="now()"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        </entity>
        <entity name="Writer" representedClassName="Writer" parentEntity="Person">
            <attribute name="awards" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            <attribute name="awardsShown" optional="YES" attributeType="Integer 32" derived="YES" derivationExpression="awards" usesScalarValueType="YES"/>
        </entity>
        <entity name="Book" representedClassName="Book">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="pages" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <attribute name="published" optional="YES" attributeType="Date"/>
            <attribute name="authorName" optional="YES" attributeType="String" derived="YES" derivationExpression="author.name"/>
            <attribute name="authorKey" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(author.name)"/>
            <attribute name="authorBooks" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="author.books.@count" usesScalarValueType="YES"/>
            <attribute name="roomLabel" optional="YES" attributeType="String" derived="YES" derivationExpression="shelf.room.label"/>
            <attribute name="tagCount" attributeType="Integer 16" derived="YES" derivationExpression="tags.@count" usesScalarValueType="YES"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag" representedClassName="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <attribute name="bookCount" attributeType="Integer 32" derived="YES" derivationExpression="books.@count" usesScalarValueType="YES"/>
            <attribute name="longest" optional="YES" attributeType="Integer 32" derived="YES" derivationExpression="books.pages.@max" usesScalarValueType="YES"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
        </entity>
        <entity name="Shelf" representedClassName="Shelf">
            <attribute name="number" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            <relationship name="room" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Room" inverseName="shelves" inverseEntity="Room"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
        </entity>
        <entity name="Room" representedClassName="Room">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="shelves" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Shelf" inverseName="room" inverseEntity="Shelf"/>
        </entity>
        """

    /// A seed with every kind of link: Ada (a Writer) wrote two books, Émile one, Grace none; two tags.
    static let seed = """
        {"Person": [{"_pk": 1, "name": "Émile Zola"}, {"_pk": 3, "name": "grace"}],
         "Writer": [{"_pk": 2, "name": "Ada", "awards": 3}],
         "Room": [{"_pk": 1, "label": "Salle Ⅰ"}],
         "Shelf": [{"_pk": 1, "number": 4, "room": 1}],
         "Book": [{"_pk": 1, "title": "Nana", "pages": 400, "published": "1880-03-15T00:00:00.000Z", "author": 1, "shelf": 1, "tags": [1]},
                  {"_pk": 2, "title": "Notes", "pages": 60, "published": "1843-09-01T00:00:00.000Z", "author": 2, "tags": [1, 2]},
                  {"_pk": 3, "title": "Sketches", "pages": 100, "author": 2}],
         "Tag": [{"_pk": 1, "label": "classic"}, {"_pk": 2, "label": "science"}]}
        """

    /// Writes the bundle `Library` with one version (or `versions` of entity elements) into `folder`.
    @discardableResult
    static func bundle(in folder: TemporaryFolder, versions: [(String, String)]? = nil) throws -> String {
        try BundleWriting.write("Library", in: folder.path, versions: versions ?? [("Library", entities)])
    }

    /// The rows of a query as text, one line a row (values as SQLite's `quote()` writes them).
    static func rows(_ sql: String, in path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        return try connection.rows(sql).map { row in row.map(\.description).joined(separator: " | ") }
    }
}
