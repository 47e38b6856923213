import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A step keeps the indexes of the tables it carries where it does not change them: an index is built again
/// only where its table is rebuilt or its definition changes, so a step that adds an attribute costs that, not
/// an index over every row of its table (issue 29: the `_entity` index of a hierarchy table was dropped and
/// built again at every step that carried the table).
@Suite struct KeptIndexTests {
    private static let animals = """
        <entity name="Animal" isAbstract="YES"><attribute name="name" optional="YES" attributeType="String"/><fetchIndex name="byName"><fetchIndexElement property="name" type="Binary" order="ascending"/></fetchIndex></entity>
        <entity name="Dog" parentEntity="Animal"><attribute name="breed" optional="YES" attributeType="String"/></entity>
        <entity name="Cat" parentEntity="Animal"/>
        """

    /// Animals of both kinds, as a seed file.
    private static func seed(in folder: TemporaryFolder) throws -> String {
        let dogs = (1...60).map { #"{"_pk": \#($0), "name": "dog \#($0)", "breed": "b\#($0 % 7)"}"# }
        let cats = (61...100).map { #"{"_pk": \#($0), "name": "cat \#($0)"}"# }
        return try folder.write(
            #"{"Dog": [\#(dogs.joined(separator: ", "))], "Cat": [\#(cats.joined(separator: ", "))]}"#, to: "seed.json")
    }

    /// The statements beginning with `prefix` run on the files the passes write (each pass of a migration step by
    /// step writes a file of its own).
    private static func count(_ prefix: String, on passes: [String]) -> Int {
        passes.map { StatementCounter.shared.count(on: $0, startingWith: prefix) }.reduce(0, +)
    }

    /// The statements that drop or create an index named `name`.
    private static func indexStatements(named name: String, on passes: [String]) -> Int {
        count("DROP INDEX IF EXISTS main.\"\(name)\"", on: passes) + count("DROP INDEX main.\"\(name)\"", on: passes)
            + count("CREATE INDEX IF NOT EXISTS \"\(name)\"", on: passes)
    }

    @Test(arguments: [false, true])
    func aStepThatAddsAnAttributeKeepsItsTablesIndexes(composesSteps: Bool) async throws {
        let added = Self.animals.replacingOccurrences(
            of: #"<entity name="Cat" parentEntity="Animal"/>"#,
            with: #"<entity name="Cat" parentEntity="Animal">"#
                + #"<attribute name="lives" optional="YES" attributeType="Integer 16"/></entity>"#)
        let renamed = added.replacingOccurrences(
            of: #"<attribute name="breed""#, with: #"<attribute name="kind" elementID="breed""#)
        let bundle = makeBundle(
            "Animals", try makeVersion("Animals", Self.animals), try makeVersion("Animals 2", added),
            try makeVersion("Animals 3", renamed))
        let folder = try TemporaryFolder()
        let migration = try MigrationCase(bundle: bundle, version: "Animals", seed: try Self.seed(in: folder))
        let before = try SQLiteConnection(path: migration.store, mode: .readOnly).rows(
            #"SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Animal' ORDER BY name"#)
        #expect(before == [[.text("_Animal_entity_index")], [.text("_Animal_fetch_byName")]])
        let passes = [StoreFiles.temporarySuffix, ".remodel-step-1", ".remodel-step-2"].map { migration.store + $0 }
        for pass in passes { StatementCounter.shared.start(watching: pass) }
        var options = MigrationOptions()
        options.composesSteps = composesSteps
        try await migration.migrate(options)

        for index in ["_Animal_entity_index", "_Animal_fetch_byName"] {
            #expect(Self.indexStatements(named: index, on: passes) == 0, "\(index) was dropped or built again")
        }
        #expect(
            Self.count("ALTER TABLE main.\"Animal\" ADD COLUMN", on: passes) == 1
                && Self.count("ALTER TABLE main.\"Animal\" RENAME COLUMN", on: passes) == 1,
            "the passes ran on the watched files")
        let store = try SQLiteConnection(path: migration.store, mode: .readOnly)
        #expect(
            try store.rows(
                #"SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Animal' ORDER BY name"#)
                == before)
        #expect(try store.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(
            try store.rows(#"SELECT _entity, count(*) FROM Animal INDEXED BY "_Animal_entity_index" GROUP BY _entity"#)
                == [[.text("Cat"), .integer(40)], [.text("Dog"), .integer(60)]])
        #expect(
            try store.rows(#"SELECT _pk, name, kind, lives FROM Animal WHERE _pk IN (7, 61) ORDER BY _pk"#) == [
                [.integer(7), .text("dog 7"), .text("b0"), .null], [.integer(61), .text("cat 61"), .null, .null],
            ])
    }
}
