import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Every refusal of `remodel import-core-data` and `remodel extract-model`, run with the built binary:
/// exit status 1 (2 for a source that is not there), one sentence naming the user's file (never one of Remodel's temporary names: a hidden
/// `.…remodel-…` file, a `remodel-core-data…` private folder, a `/proc/self/fd/…` descriptor), the
/// source's folder byte for byte as it was, and nothing left beside the target.
struct CoreDataRefusalTests {
    /// The names of Remodel's temporary files and folders, which a message must never show.
    static let temporaryNames = [".remodel-", "remodel-core-data", "/proc/self/fd"]

    /// One refusal: how to make it, what the command is, and a part of the sentence it must print.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "target exists", expected: "a file already exists here"),
        Case(name: "no source", expected: "there is no Core Data store here"),
        Case(name: "not SQLite", expected: "this is not an SQLite database"),
        Case(name: "not Core Data", expected: "this SQLite database is not a Core Data store"),
        Case(name: "damaged source", expected: "the Core Data store is damaged: SQLite cannot read it"),
        Case(name: "damaged metadata", expected: "Z_METADATA.Z_PLIST is not a binary property list"),
        Case(name: "fits no version", expected: "fits no version of model \"Zoo\""),
        Case(name: "two versions fit", expected: "fits versions \"Zoo 1\" and \"Zoo 2\""),
        Case(name: "version given does not fit", expected: "does not fit version \"Zoo 2\""),
        Case(name: "bad value", expected: "Dog Z_PK 4 attribute \"born\""),
        Case(name: "abstract entity", expected: "ZANIMAL Z_PK 3 has entity number 9"),
        // A table whose only entity is abstract: the copy's SQL once had a CASE without WHEN (a syntax error said
        // of the new store).
        Case(
            name: "objects of an abstract entity without sub-entities",
            expected: "ZZONE Z_PK 1 has the abstract entity Zone; an object must be of a concrete entity"),
        Case(name: "dangling to-one", expected: "names Z_PK 9, but the store has no Keeper"),
        Case(name: "dangling link", expected: "links Z_PK 7 as a Zone"),
        Case(name: "dangling link into a gap of the keys", expected: "links Z_PK 3 as a Zone"),
        Case(
            name: "to-one holds text",
            expected:
                "relationship \"keeper\" (column ZANIMAL.ZKEEPER): the store holds 'one' (text), but a to-one relationship must be the Z_PK of an object, an integer"
        ),
        Case(name: "link holds text", expected: "links Z_PK 'x' as a Keeper"),
        Case(name: "missing external file", expected: "its bytes are kept in the file"),
        Case(name: "not unique", expected: "have the same title, which must be unique"),
        // A batch update can leave a required value nil, or one out of bounds: imported, the store failed its own
        // checks and its export did not import back.
        Case(
            name: "required value nil",
            expected:
                "Dog Z_PK 4 attribute \"name\" (column ZANIMAL.ZNAME): the store holds NULL (null), but a String attribute must be text, never NULL (the model says it is required)"
        ),
        Case(
            name: "value out of bounds",
            expected:
                "the Core Data store holds objects that break the rules of version \"Zoo 1\" (Core Data checks them only when it saves an object"
        ),
        Case(name: "value out of bounds, the object", expected: "Cat _pk 3 \"lives\""),
        Case(name: "model with errors", expected: "[missing-destination]"),
        Case(name: "merged models define an entity twice", expected: "both define entity Zone"),
        Case(name: "no model cache", expected: "keeps no compiled model"),
        Case(
            name: "damaged model cache", expected: "the compiled model in the Core Data store's Z_MODELCACHE is damaged"
        ),
        Case(
            name: "damaged archive",
            expected:
                "Zoo.sqlite: the compiled model in the Core Data store's Z_MODELCACHE is damaged (it does not hold a keyed archive"
        ),
        Case(
            name: "archive of no model",
            expected:
                "Zoo.sqlite: the compiled model in the Core Data store's Z_MODELCACHE is damaged (the archive's root is not an NSManagedObjectModel)"
        ),
        Case(
            name: "extract: damaged archive",
            expected:
                "Zoo.sqlite: the compiled model in the Core Data store's Z_MODELCACHE is damaged (it does not hold a keyed archive"
        ),
        Case(name: "extract: no model cache", expected: "keeps no compiled model"),
        Case(name: "extract: output exists", expected: "something is already at this path"),
    ]

    @Test(arguments: cases)
    func refusesInOneSentenceNamingTheUsersFiles(case refusal: Case) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        var source = try CoreDataStoreBuilder.zoo(at: folder.file("source/Zoo.sqlite"))
        var bundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        let target = folder.file("out/zoo.sqlite")
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: true)
        var arguments: [String]? = nil
        let connection = try SQLiteConnection(path: source, mode: .readWrite)
        switch refusal.name {
        case "target exists": _ = try folder.write("keep", to: "out/zoo.sqlite")
        case "no source": source = folder.file("source/Nothing.sqlite")
        case "not SQLite": source = try folder.write("just text, not a database", to: "source/Text.sqlite")
        case "not Core Data":
            source = folder.file("source/Other.sqlite")
            try SQLiteConnection(path: source, mode: .create).execute("CREATE TABLE t (x)")
        case "damaged source": try Self.damagePages(of: "ZANIMAL", in: source, connection: connection)
        case "damaged metadata": try connection.execute("UPDATE Z_METADATA SET Z_PLIST = X'62706C697374303000'")
        case "fits no version": try connection.execute("ALTER TABLE ZZONE ADD COLUMN ZCOLOR VARCHAR")
        case "two versions fit", "version given does not fit":
            bundle = try BundleWriting.write("Zoo", in: folder.file("twins"), versions: CoreDataVersionTests.twins)
            if refusal.name == "version given does not fit" {
                try connection.execute("ALTER TABLE ZZONE ADD COLUMN ZCOLOR VARCHAR")
                arguments = ["import-core-data", source, "--model", bundle, "--into", target, "--version", "Zoo 2"]
            }
        case "bad value": try connection.execute("UPDATE ZANIMAL SET ZBORN = 'yesterday' WHERE Z_PK = 4")
        case "required value nil": try connection.execute("UPDATE ZANIMAL SET ZNAME = NULL WHERE Z_PK = 4")
        case "value out of bounds", "value out of bounds, the object":
            let bounded = CoreDataStoreBuilder.zooEntities.replacingOccurrences(
                of: #"<attribute name="lives" optional="YES" attributeType="Integer 16"/>"#,
                with: #"<attribute name="lives" optional="YES" attributeType="Integer 16" maxValueString="9"/>"#)
            bundle = try BundleWriting.write("Zoo", in: folder.file("bounded"), versions: [("Zoo 1", bounded)])
            try connection.execute("UPDATE ZANIMAL SET ZLIVES = 12 WHERE Z_PK = 3")
        case "abstract entity": try connection.execute("UPDATE ZANIMAL SET Z_ENT = 9 WHERE Z_PK = 3")
        case "objects of an abstract entity without sub-entities":
            let abstract = CoreDataStoreBuilder.zooEntities.replacingOccurrences(
                of: #"<entity name="Zone">"#, with: #"<entity name="Zone" isAbstract="YES">"#)
            bundle = try BundleWriting.write("Zoo", in: folder.file("abstract"), versions: [("Zoo 1", abstract)])
        case "dangling to-one": try connection.execute("UPDATE ZANIMAL SET ZKEEPER = 9 WHERE Z_PK = 5")
        case "dangling link": try connection.execute("INSERT INTO Z_4ZONES VALUES (1, 7, 10)")
        case "dangling link into a gap of the keys":
            try connection.execute("INSERT INTO ZZONE VALUES (4, 5, 1, 'East'); INSERT INTO Z_4ZONES VALUES (1, 3, 10)")
        case "to-one holds text": try connection.execute("UPDATE ZANIMAL SET ZKEEPER = 'one' WHERE Z_PK = 5")
        case "link holds text": try connection.execute("INSERT INTO Z_4ZONES VALUES ('x', 1, 10)")
        case "missing external file":
            try FileManager.default.removeItem(
                atPath: folder.file("source/.Zoo_SUPPORT/_EXTERNAL_DATA/5F0F6A5B-2C6B-4B4B-9B1A-0E3A4D5C6B7A"))
        case "not unique":
            try connection.execute("UPDATE ZZONE SET ZTITLE = 'North'")
            let unique = CoreDataStoreBuilder.zooEntities.replacingOccurrences(
                of: #"<relationship name="keepers""#,
                with:
                    #"<uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints>"#
                    + "\n" + #"<relationship name="keepers""#)
            bundle = try BundleWriting.write("Zoo", in: folder.file("unique"), versions: [("Zoo 1", unique)])
        case "model with errors":
            bundle = try BundleWriting.write(
                "Zoo", in: folder.file("broken"),
                versions: [
                    (
                        "Zoo 1",
                        CoreDataStoreBuilder.zooEntities.replacingOccurrences(
                            of: #"destinationEntity="Zone""#, with: #"destinationEntity="Zoon""#)
                    )
                ])
        case "merged models define an entity twice":
            let other = try BundleWriting.write(
                "Tickets", in: folder.file("tickets"),
                versions: [
                    ("Tickets", #"<entity name="Zone"><attribute name="title" attributeType="String"/></entity>"#)
                ])
            arguments = ["import-core-data", source, "--model", bundle, "--model", other, "--into", target]
        case "no model cache": try connection.execute("DELETE FROM Z_MODELCACHE")
        case "damaged model cache": break  // the zoo's Z_MODELCACHE holds one byte, 00: not a DEFLATE stream
        case "damaged archive", "extract: damaged archive":
            // A DEFLATE stream that inflates, to a keyed archive cut short: the property list's
            // trailer (its last 32 bytes) is gone.
            let archive = BinaryPropertyListWriter.encode(
                .dictionary([
                    ("$archiver", .string("NSKeyedArchiver")), ("$top", .dictionary([("root", .uid(1))])),
                    ("$objects", .array([.string("$null"), .string("NSManagedObjectModel")])),
                ]))
            try connection.run(
                "UPDATE Z_MODELCACHE SET Z_CONTENT = ?",
                [.blob(Data(BinaryPropertyListWriter.storedDeflate(Array(archive.dropLast(32)))))])
            if refusal.name.hasPrefix("extract") {
                arguments = ["extract-model", source, "--output", folder.file("out/Zoo.xcdatamodeld")]
            }
        case "archive of no model":
            // A whole keyed archive whose root is a string.
            let archive = BinaryPropertyListWriter.encode(
                .dictionary([
                    ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
                    ("$top", .dictionary([("root", .uid(1))])),
                    ("$objects", .array([.string("$null"), .string("NSManagedObjectModel")])),
                ]))
            try connection.run(
                "UPDATE Z_MODELCACHE SET Z_CONTENT = ?", [.blob(Data(BinaryPropertyListWriter.storedDeflate(archive)))])
        case "extract: no model cache":
            try connection.execute("DROP TABLE Z_MODELCACHE")
            arguments = ["extract-model", source, "--output", folder.file("out/Zoo.xcdatamodeld")]
        case "extract: output exists":
            try connection.run(
                "UPDATE Z_MODELCACHE SET Z_CONTENT = ?",
                [.blob(Data(ModelCacheWriter.cache(of: try ModelBundle(contentsOf: bundle).currentVersion)))])
            try FileManager.default.createDirectory(
                atPath: folder.file("out/Zoo.xcdatamodeld"), withIntermediateDirectories: true)
            arguments = ["extract-model", source, "--output", folder.file("out/Zoo.xcdatamodeld")]
        default: Issue.record("unknown case \(refusal.name)")
        }
        withExtendedLifetime(connection) {}
        let usesStoreModel =
            ["model cache", "archive"].contains { refusal.name.contains($0) } && !refusal.name.hasPrefix("extract")
        let command =
            arguments
            ?? ["import-core-data", source] + (usesStoreModel ? [] : ["--model", bundle]) + ["--into", target]
        let sourceFolder = try folderBytes(folder.file("source"))
        let outFolder = try folder.contents()
        let outFiles = try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).sorted()

        let run = try RemodelProcess.run(command)

        // A source that is not there could not start the command (2); every other case is refused (1).
        #expect(run.status == (refusal.name == "no source" ? 2 : 1), "\(run)")
        #expect(run.output.isEmpty)
        #expect(run.error.contains(refusal.expected), "\(run.error)")
        for name in Self.temporaryNames {
            #expect(!run.error.contains(name), "the message names a temporary file: \(run.error)")
        }
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1 || refusal.name == "model with errors", "\(run.error)")
        #expect(try folderBytes(folder.file("source")) == sourceFolder, "the source's folder changed")
        #expect(try folder.contents() == outFolder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).sorted() == outFiles)
    }

    /// Overwrites the pages of `table`'s B-tree (past its root) with garbage, so reading its rows fails.
    static func damagePages(of table: String, in store: String, connection: SQLiteConnection) throws {
        try connection.execute("PRAGMA journal_mode = DELETE")
        for index in 0..<400 {
            try connection.run(
                "INSERT INTO ZANIMAL (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPHOTO) VALUES (?, 1, 1, ?, NULL)",
                [.integer(Int64(100 + index)), .text(String(repeating: "x", count: 300))])
        }
        guard
            case .integer(let root) = try connection.scalar(
                "SELECT rootpage FROM sqlite_master WHERE name = ?", [.text(table)]),
            case .integer(let pageSize) = try connection.scalar("PRAGMA page_size"),
            case .integer(let pages) = try connection.scalar("PRAGMA page_count")
        else { throw RemodelError(.io, "no table \(table)") }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store))
        defer { try? handle.close() }
        // Leaf pages of the table follow its root: overwrite the last pages, which hold its new rows.
        for page in max(root + 1, pages - 20)...pages {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize + 8))
            handle.write(Data(repeating: 0xEE, count: Int(pageSize) - 8))
        }
    }
}
