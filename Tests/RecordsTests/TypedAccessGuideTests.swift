import Foundation
import GRDB
import LibraryRecords
import Remodel
import Testing

// The examples of docs/TYPED-ACCESS.md, compiled and run: each region between `// example: NAME` and
// `// end example` is a code block of the guide, byte for byte once indented back (`guideQuotesTheExamples`).

struct TypedAccessGuideTests {
    static let guide = RecordsTestSupport.root.appendingPathComponent("docs/TYPED-ACCESS.md")
    static let source = URL(fileURLWithPath: #filePath)

    /// An empty store of the sample model at its current version.
    func libraryQueue(in folder: URL) throws -> DatabaseQueue {
        let bundle = try RecordsTestSupport.model("Models/Library.xcdatamodeld")
        let path = folder.appendingPathComponent("library.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        return try DatabaseQueue(path: path)
    }

    @Test func insertAndReadBack() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dbQueue = try libraryQueue(in: folder)
        // example: insert
        let ada = try dbQueue.write { db in
            var ada = Person(age: 36, fullName: "Ada Lovelace")
            try ada.insert(db)  // GRDB's insert: validates, checks keys, then ada.id is set
            var notes = Book(title: "Notes", author: ada.id)
            try notes.insert(db)
            return ada
        }
        let books = try dbQueue.read { db in
            try Book.filter(Book.Columns.author == ada.id).order(Book.Columns.title).fetchAll(db)
        }
        // end example
        #expect(ada.id == 1 && books.map(\.title) == ["Notes"])
        // example: refused
        try dbQueue.write { db in
            var grace = Book(title: "Grace", author: Person.ID(999))
            do {
                try grace.insert(db)
            } catch let error as LibrarySchema.RecordError {
                // Book (not inserted) relationship "author": there is no Person with _pk 999
                print(error)
            }
        }
        // end example
        #expect(try dbQueue.read { db in try Book.fetchCount(db) } == 1)
    }

    @Test func followARelationshipBothWays() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dbQueue = try libraryQueue(in: folder)
        typealias Tag = LibraryRecords.Tag  // the sample model's, not Swift Testing's
        // example: follow
        try dbQueue.write { db in
            var ada = Person(fullName: "Ada Lovelace")
            try ada.insert(db)
            var notes = Book(title: "Notes", author: ada.id)
            try notes.insert(db)
            var poetry = Tag(name: "poetry")
            try poetry.insert(db)
            try notes.addToTags([poetry.id!], in: db)  // writes both sides now

            let author = try notes.request(for: Book.author).fetchOne(db)  // Ada
            let written = try ada.request(for: Person.books).fetchAll(db)  // [Notes]
            let tagged = try poetry.booksRequest.fetchAll(db)  // the same request, by its generated name
            print(author?.fullName ?? "", written.map(\.title), tagged.map(\.title))
        }
        // end example
        try dbQueue.read { db in
            let notes = try #require(try Book.fetchOne(db))
            #expect(try notes.authorRequest.fetchOne(db)?.fullName == "Ada Lovelace")
            #expect(try Tag.fetchOne(db)?.booksRequest.fetchAll(db).map(\.title) == ["Notes"])
        }
    }

    @Test func eagerLoadAToOneAndAToManyIntoOneStruct() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dbQueue = try libraryQueue(in: folder)
        typealias Tag = LibraryRecords.Tag  // the sample model's, not Swift Testing's
        try dbQueue.write { db in
            var ada = Person(fullName: "Ada Lovelace")
            try ada.insert(db)
            var notes = Book(title: "Notes", author: ada.id)
            try notes.insert(db)
            var sketch = Book(title: "Sketch", author: ada.id)
            try sketch.insert(db)
            for name in ["poetry", "science"] {
                var tag = Tag(name: name)
                try tag.insert(db)
                try notes.addToTags([tag.id!], in: db)
            }
        }
        // example: eager
        /// A book with its author and tags, read in one request.
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Person
            var tags: [Tag]
        }

        /// An author with every book they wrote.
        struct AuthorInfo: Decodable, FetchableRecord {
            var person: Person
            var books: [Book]
        }

        let (infos, authors) = try dbQueue.read { db in
            let infos =
                try Book
                .including(required: Book.author)
                .including(all: Book.tags)
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            let authors =
                try Person
                .including(all: Person.books)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            return (infos, authors)
        }
        // end example
        #expect(infos.map(\.book.title) == ["Notes", "Sketch"])
        #expect(infos.map(\.author.fullName) == ["Ada Lovelace", "Ada Lovelace"])
        #expect(infos.map { $0.tags.map(\.name) } == [["poetry", "science"], []])
        #expect(authors.map { $0.books.map(\.title) } == [["Notes", "Sketch"]])
    }

    /// The guide's code blocks that follow an `<!-- example: NAME -->` line are the regions of this file.
    @Test func guideQuotesTheExamples() throws {
        let source = try String(contentsOf: Self.source, encoding: .utf8)
        let guide = try String(contentsOf: Self.guide, encoding: .utf8)
        let examples = Self.regions(in: source)
        let quoted = Self.quotedBlocks(in: guide)
        #expect(
            Set(quoted.keys) == Set(examples.keys),
            "the guide quotes \(quoted.keys.sorted()), the tests have \(examples.keys.sorted())")
        for (name, code) in examples {
            #expect(quoted[name] == code, "docs/TYPED-ACCESS.md's example \(name) is not the test's:\n\(code)")
        }
    }

    /// `// example: NAME` … `// end example`, each line taken back to the region's first indentation.
    static func regions(in text: String) -> [String: String] {
        var result: [String: String] = [:]
        var name: String?
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("// example: ") {
                name = String(trimmed.dropFirst("// example: ".count))
                lines = []
            } else if trimmed == "// end example", let current = name {
                let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                result[current] = lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
                name = nil
            } else if name != nil {
                lines.append(line)
            }
        }
        return result
    }

    /// The ```swift block after each `<!-- example: NAME -->` line.
    static func quotedBlocks(in text: String) -> [String: String] {
        var result: [String: String] = [:]
        var name: String?
        var lines: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<!-- example: "), line.hasSuffix(" -->") {
                name = String(line.dropFirst("<!-- example: ".count).dropLast(" -->".count))
            } else if line == "```swift", name != nil, lines == nil {
                lines = []
            } else if line == "```", let current = name, let body = lines {
                result[current] = body.joined(separator: "\n")
                name = nil
                lines = nil
            } else if lines != nil {
                lines?.append(line)
            }
        }
        return result
    }
}
