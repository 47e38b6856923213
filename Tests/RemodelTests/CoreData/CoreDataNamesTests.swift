import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// Names Core Data made are found by the store's structure, never predicted (docs/CORE-DATA-STORES.md,
/// "Names Core Data numbers"): stores shaped as Core Data shapes them (``CoreDataShapedStore``), whose
/// numbered columns and join columns are given out in a drawn order, import with every value where the
/// builder wrote it.
struct CoreDataNamesTests {
    /// The public app whose stores number their join columns (`Z_23USERS1`): `Reaction.users` and
    /// `SystemMessage.users` are both many-to-many into `User`, and `ZTEXT`/`ZTEXT1` are two sub-entities'
    /// `text` in `ZMESSAGE`.
    static let wire = ValidationSupport.packageRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/corpus/wireapp__wire-ios-data-model/zmessaging.xcdatamodeld"
    ).path

    static let wireEnabled = Testing.ConditionTrait.enabled(
        if: FileManager.default.fileExists(atPath: wire), "shared/corpus is not beside the repository")

    /// Versions of the wire model: the first, one from the middle, the last; the numbers of the join
    /// tables' names are an earlier numbering in the odd seeds.
    @Test(
        .tags(.corpus, .slow), .skippable(.corpus), .skippable(.slow), wireEnabled,
        arguments: [("zmessaging2.3", UInt64(1)), ("zmessaging2.30.0", 2), ("zmessaging2.55.0", 3)])
    func importsWireShapedStoresWhateverTheNumberedNames(version name: String, seed: UInt64) throws {
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(contentsOf: Self.wire)
        let version = try bundle.loadVersion(named: name)
        let shaped = CoreDataShapedStore(version: version, seed: seed, staleJoinNumbers: seed % 2 == 1)
        if version.entity(named: "Reaction") != nil {
            #expect(shaped.joins.values.contains { $0.members.hasSuffix("USERS1") })
        }
        try shaped.write(to: folder.file("wire.sqlite"))

        let result = try Store.importCoreData(
            from: folder.file("wire.sqlite"), bundle: bundle, into: folder.file("out.sqlite"))

        #expect(result.versionName == name)
        try shaped.check(imported: try SQLiteConnection(path: folder.file("out.sqlite"), mode: .readOnly))
    }

    /// A store's names are compared as SQLite compares them, ASCII case folded and every other byte as it is:
    /// `ZCAFé` and `ZCAFÉ` are two tables (and two columns), each found by its own name. A model's names are
    /// spelled as Core Data spells them, with Unicode's full upper case (`café` → `ZCAFÉ`, `straße` →
    /// `ZSTRASSE`), and read against a join table's name so (`Z_3ÉLÈVES1` for `élèves`).
    @Test func storeNamesFoldASCIICaseOnlyAndModelNamesAreSpelledAsCoreDataSpellsThem() throws {
        let folder = try TemporaryFolder()
        let connection = try SQLiteConnection(path: folder.file("names.sqlite"), mode: .create)
        try connection.execute(
            #"CREATE TABLE "ZCAFé" ("Zé" INTEGER, "ZÉ" TEXT); CREATE TABLE "ZCAFÉ" ("zx" INTEGER)"#)
        let schema = try CoreDataSchema.read(from: connection, path: folder.file("names.sqlite"))
        #expect(schema.table("zcafé")?.name == "ZCAFé")
        #expect(schema.table("ZCAFÉ")?.name == "ZCAFÉ")
        #expect(schema.table("ZCAFé")?.column("zÉ")?.type == "TEXT")
        #expect(schema.table("ZCAFé")?.column("Zé")?.type == "INTEGER")
        #expect(CoreDataName.table(ofRoot: "Caf\u{E9}") == "ZCAF\u{C9}")
        #expect(CoreDataName.column(of: "stra\u{DF}e") == "ZSTRASSE")
        #expect(CoreDataName.suffix(of: "ZCAF\u{C9}2", after: CoreDataName.column(of: "caf\u{E9}")) == 2)
        #expect(CoreDataName.suffix(of: "ZCAF\u{E9}", after: CoreDataName.column(of: "caf\u{E9}")) == nil)
        #expect(
            CoreDataName.joinName("Z_3\u{C9}L\u{C8}VES1", of: "\u{E9}l\u{E8}ves").map { [$0.number, Int64($0.suffix)] }
                == [3, 1])
    }

    /// Generated models whose names collide: sibling entities declaring one attribute name (in one case or
    /// two, of one type or two), to-ones of one name into one entity, many-to-manys of one name into one
    /// entity whose inverses collide once upper-cased; stores whose numbered names are given out in a drawn
    /// order. Each imports with every value and link where the builder's record says it wrote it.
    @Test(arguments: 0..<24)
    func importsGeneratedCollidingNames(seed: Int) throws {
        let folder = try TemporaryFolder()
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
        let path = try BundleWriting.write(
            "Names", in: folder.path, versions: [("Names 1", CollidingModel.entities(using: &random))])
        let bundle = try ModelBundle(contentsOf: path)
        let errors = ModelValidator.validate(bundle).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
        let shaped = CoreDataShapedStore(
            version: try bundle.loadVersion(named: "Names 1"), seed: UInt64(seed), objectsPerEntity: 4,
            staleJoinNumbers: seed % 3 == 0)
        try shaped.write(to: folder.file("names.sqlite"))

        _ = try Store.importCoreData(from: folder.file("names.sqlite"), bundle: bundle, into: folder.file("out.sqlite"))

        try shaped.check(imported: try SQLiteConnection(path: folder.file("out.sqlite"), mode: .readOnly))
    }

    /// The matching alone: two sibling entities' `text` in `ZTEXT` and `ZTEXT1`, told apart by which
    /// objects hold values in each, whichever got the number.
    @Test(arguments: [false, true])
    func tellsNumberedColumnsApartByTheirValues(swapped: Bool) {
        let claims = [
            CoreDataColumnMatching.Claim(candidates: ["ZTEXT", "ZTEXT1"], kinds: [15], fits: { _ in true }),
            CoreDataColumnMatching.Claim(candidates: ["ZTEXT", "ZTEXT1"], kinds: [16], fits: { _ in true }),
        ]
        let occupancy: [String: Set<Int64>] =
            swapped ? ["ZTEXT": [16], "ZTEXT1": [15]] : ["ZTEXT": [15], "ZTEXT1": [16]]
        let assigned = CoreDataColumnMatching.assign(claims, occupancy: occupancy)
        #expect(assigned == (swapped ? [0: "ZTEXT1", 1: "ZTEXT"] : [0: "ZTEXT", 1: "ZTEXT1"]))
    }

    /// Where the values cannot tell (one entity declares `city` and a composite whose leaf is `city`, and every
    /// object holds both), the first claim keeps the first column: a later claim that fits a free column takes it
    /// instead of moving an earlier one.
    @Test func aClaimTheValuesCannotTellApartKeepsItsFirstColumn() {
        let claims = [
            CoreDataColumnMatching.Claim(candidates: ["ZCITY", "ZCITY1"], kinds: [1], fits: { _ in true }),
            CoreDataColumnMatching.Claim(candidates: ["ZCITY", "ZCITY1"], kinds: [1], fits: { _ in true }),
        ]
        let assigned = CoreDataColumnMatching.assign(claims, occupancy: ["ZCITY": [1], "ZCITY1": [1]])
        #expect(assigned == [0: "ZCITY", 1: "ZCITY1"])
    }
}

/// Models whose names collide in every way Core Data numbers them.
enum CollidingModel {
    /// Names that collide once upper-cased, as Core Data upper-cases them (Unicode's full mapping: `straße` and
    /// `STRASSE` are both `ZSTRASSE`), and names SQLite keeps apart (`café`, `cafÉ`: ASCII case only).
    static let attributeNames = [
        "text", "Text", "note", "note1", "size", "caf\u{E9}", "caf\u{C9}", "stra\u{DF}e", "STRASSE",
    ]
    static let types = ["String", "Integer 32", "Double", "Date", "Boolean", "Binary", "UUID"]

    /// The entities of one version: `Item` with sub-entities `Alpha`, `Beta` and `Gamma` (under `Beta`),
    /// `Tag`, and `Box`.
    static func entities(using random: inout SplitMix64) -> String {
        var declared: [String: [String]] = [:]
        var relationships: [String: Set<String>] = [:]
        var tagInverses: [String] = []
        var written: [String] = []
        let inverseNames = ["items", "Items", "alphas", "owners", "Owners", "\u{E9}l\u{E8}ves", "\u{C9}l\u{E8}ves"]
            .shuffled(using: &random)
        let parents = ["Item": nil, "Alpha": "Item", "Beta": "Item", "Gamma": "Beta", "Box": nil] as [String: String?]
        for entity in ["Item", "Alpha", "Beta", "Gamma", "Box"] {
            var lines: [String] = []
            var lineage: Set<String> = []
            var inherited: Set<String> = []
            var ancestor = parents[entity] ?? nil
            while let name = ancestor {
                lineage.formUnion(declared[name]?.map { $0.lowercased() } ?? [])
                inherited.formUnion(relationships[name] ?? [])
                ancestor = parents[name] ?? nil
            }
            var own: [String] = []
            for name in attributeNames.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))
            where !lineage.contains(name.lowercased()) && !own.contains(where: { $0.lowercased() == name.lowercased() })
            {
                own.append(name)
                let type = types.randomElement(using: &random) ?? "String"
                lines.append(#"<attribute name="\#(name)" optional="YES" attributeType="\#(type)"/>"#)
            }
            declared[entity] = own
            if entity != "Item", !inherited.contains("tag"), Bool.random(using: &random) {
                relationships[entity, default: []].insert("tag")
                // A to-one of one name into Tag, from several entities.
                lines.append(
                    #"<relationship name="tag" optional="YES" maxCount="1" destinationEntity="Tag" inverseName="\#(entity.lowercased())Tagged" inverseEntity="Tag"/>"#
                )
                tagInverses.append(
                    #"<relationship name="\#(entity.lowercased())Tagged" optional="YES" toMany="YES" destinationEntity="\#(entity)" inverseName="tag" inverseEntity="\#(entity)"/>"#
                )
            }
            if entity != "Item", !inherited.contains("tags"), Bool.random(using: &random),
                let inverse = inverseNames.first(where: { name in
                    !tagInverses.contains { $0.contains(#"name="\#(name)""#) }
                })
            {
                relationships[entity, default: []].insert("tags")
                // A many-to-many of one name into Tag, from several entities; the inverses may collide once
                // upper-cased.
                let ordered = Bool.random(using: &random) ? #" ordered="YES""# : ""
                lines.append(
                    #"<relationship name="tags" optional="YES" toMany="YES"\#(ordered) destinationEntity="Tag" inverseName="\#(inverse)" inverseEntity="Tag"/>"#
                )
                tagInverses.append(
                    #"<relationship name="\#(inverse)" optional="YES" toMany="YES" destinationEntity="\#(entity)" inverseName="tags" inverseEntity="\#(entity)"/>"#
                )
            }
            let parent = (parents[entity] ?? nil).map { #" parentEntity="\#($0)""# } ?? ""
            let abstract = entity == "Item" && Bool.random(using: &random) ? #" isAbstract="YES""# : ""
            written.append(
                #"<entity name="\#(entity)"\#(parent)\#(abstract)>"# + lines.joined() + "</entity>")
        }
        let tag =
            #"<entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/>"#
            + tagInverses.joined() + "</entity>"
        return (written + [tag]).joined(separator: "\n")
    }
}
