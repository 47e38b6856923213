import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// `import-core-data` never keeps a store that breaks its model's rules. Core Data checks its rules only when it
/// saves an object, so a batch update or another program can leave any value in its store: each case draws edits
/// of the zoo store, some breaking a rule of a model with a rule of each kind (required values, bounds on numbers
/// and text, a regular expression, a to-many minimum), some keeping them, and compares two roads: the
/// import refuses exactly when an edit breaks a rule (nothing written then), and a store it keeps passes the full
/// check and its export imports back.
struct CoreDataImportRulesPropertyTests {
    /// The zoo with a rule of each kind that its data keeps: Cat.lives 0...9, Animal.height at least 0, Cat.tag in
    /// lower case letters, Keeper.name at least 2 characters, every Keeper in a zone.
    static let entities = CoreDataStoreBuilder.zooEntities
        .replacingOccurrences(
            of: #"<attribute name="lives" optional="YES" attributeType="Integer 16"/>"#,
            with:
                #"<attribute name="lives" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="9"/>"#
        )
        .replacingOccurrences(
            of: #"<attribute name="height" optional="YES" attributeType="Double"/>"#,
            with: #"<attribute name="height" optional="YES" attributeType="Double" minValueString="0"/>"#
        )
        .replacingOccurrences(
            of: #"<attribute name="tag" optional="YES" attributeType="String"/>"#,
            with: #"<attribute name="tag" optional="YES" attributeType="String" regularExpressionString="[a-z]+"/>"#
        )
        .replacingOccurrences(
            of: #"(<entity name="Keeper">\s*<attribute name="name" attributeType="String")"#,
            with: #"$1 minValueString="2""#, options: .regularExpression
        )
        .replacingOccurrences(
            of: #"<relationship name="zones" optional="YES" toMany="YES" destinationEntity="Zone""#,
            with: #"<relationship name="zones" optional="YES" toMany="YES" minCount="1" destinationEntity="Zone""#)

    /// One edit of the Core Data store, and what it breaks: a required value (a rule of the zoo itself), a rule
    /// only ``entities`` adds, or nothing.
    struct Edit {
        enum Breaks { case required, addedRule, nothing }
        var sql: String
        var breaks: Breaks
    }

    static let edits: [Edit] = [
        Edit(sql: "UPDATE ZANIMAL SET ZNAME = NULL WHERE Z_PK = 3", breaks: .required),
        Edit(sql: "UPDATE ZKEEPER SET ZNAME = NULL WHERE Z_PK = 2", breaks: .required),
        Edit(sql: "UPDATE ZZONE SET ZTITLE = NULL WHERE Z_PK = 1", breaks: .required),
        Edit(sql: "UPDATE ZANIMAL SET ZLIVES = 12 WHERE Z_PK = 2", breaks: .addedRule),
        Edit(sql: "UPDATE ZANIMAL SET ZLIVES = -1 WHERE Z_PK = 3", breaks: .addedRule),
        Edit(sql: "UPDATE ZANIMAL SET ZHEIGHT = -0.5 WHERE Z_PK = 1", breaks: .addedRule),
        Edit(sql: "UPDATE ZANIMAL SET ZTAG = 'Striped!' WHERE Z_PK = 2", breaks: .addedRule),
        Edit(sql: "UPDATE ZKEEPER SET ZNAME = 'A' WHERE Z_PK = 1", breaks: .addedRule),
        Edit(sql: "DELETE FROM Z_4ZONES WHERE Z_4KEEPERS = 1", breaks: .addedRule),
        Edit(sql: "UPDATE ZANIMAL SET ZLIVES = 0 WHERE Z_PK = 3", breaks: .nothing),
        Edit(sql: "UPDATE ZANIMAL SET ZHEIGHT = 0 WHERE Z_PK = 2", breaks: .nothing),
        Edit(sql: "UPDATE ZANIMAL SET ZTAG = 'tabby' WHERE Z_PK = 3", breaks: .nothing),
        Edit(sql: "UPDATE ZKEEPER SET ZNAME = 'Al' WHERE Z_PK = 1", breaks: .nothing),
        Edit(sql: "UPDATE ZANIMAL SET ZNAME = 'Rexy' WHERE Z_PK = 1", breaks: .nothing),
        Edit(sql: "DELETE FROM Z_4ZONES WHERE Z_4KEEPERS = 2 AND Z_5ZONES = 2", breaks: .nothing),
    ]

    @Test(arguments: 0..<24)
    func anImportRefusesExactlyTheEditsThatBreakARule(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let drawn = Self.edits.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))
        // Half the cases import with the zoo's own model, which has required values and no other rule: the copy
        // alone refuses a NULL there, without the check of the new store.
        let withAddedRules = Bool.random(using: &random)
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"), extraSQL: drawn.map(\.sql))
        let bundle = try ModelBundle(
            contentsOf: try BundleWriting.write(
                "Zoo", in: folder.path,
                versions: [("Zoo 1", withAddedRules ? Self.entities : CoreDataStoreBuilder.zooEntities)]))
        let target = folder.file("imported.sqlite")
        let edits = drawn.map(\.sql).joined(separator: "; ")
        let breaksARule = drawn.contains { $0.breaks == .required || ($0.breaks == .addedRule && withAddedRules) }
        do {
            _ = try Store.importCoreData(from: source, bundle: bundle, into: target)
            #expect(!breaksARule, "imported despite a broken rule: \(edits)")
            let problems = try WritePathsPropertyTests.problems(ofStoreAt: target, bundle: bundle, folder: folder)
            #expect(problems.isEmpty, "\(edits): \(problems.joined(separator: "\n"))")
        } catch let error as RemodelError {
            #expect(breaksARule, "refused edits that keep the rules (\(edits)): \(error)")
            #expect(!FileManager.default.fileExists(atPath: target), "\(edits)")
            // The refusal names the object at fault.
            #expect(error.primaryKey != nil || error.description.contains("_pk"), "\(error)")
        }
    }
}
