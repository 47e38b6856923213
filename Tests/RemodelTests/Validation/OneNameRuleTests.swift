import Foundation
import Testing

@testable import Remodel

/// One rule for names everywhere (DESIGN.md, "Names"; issue 40, item 6): what `validate` accepts in a model is a
/// name in a mapping expression too, the version order file's `#` and `<-` are found by bytes, and two names are
/// the same exactly when SQLite would say so (`café` with U+00E9 and `cafe` with U+0301 are two names).
struct OneNameRuleTests {
    private static let accented = "name\u{301}"

    /// Uni 2 adds `full`, computed from `name\u{301}` (an attribute whose last letter carries a combining accent),
    /// which `validate` accepts: the expression `$source.name\u{301}` used to be refused, "unexpected character".
    @Test func aNameValidateAcceptsIsANameInAnExpression() async throws {
        let folder = try TemporaryFolder()
        let attribute = #"<attribute name="\#(Self.accented)" optional="YES" attributeType="String"/>"#
        let full = #"<attribute name="full" optional="YES" attributeType="String"/>"#
        let path = try BundleWriting.write(
            "Uni", in: folder.path,
            versions: [
                ("Uni", #"<entity name="Person">\#(attribute)</entity>"#),
                ("Uni 2", #"<entity name="Person">\#(attribute)\#(full)</entity>"#),
            ])
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        _ = try folder.write(
            #"<mapping model="Uni" sourceVersion="Uni" destinationVersion="Uni 2"><entity source="Person" destination="Person"><attribute name="full" value="uppercase($source.\#(Self.accented))"/></entity></mapping>"#,
            to: "Mappings/uni.xml")
        let report = try Validation.validate(paths: [folder.path])
        #expect(report.diagnostics.map(\.description) == [])
        let bundle = try ModelBundle(contentsOf: path)
        let store = folder.file("uni.sqlite")
        _ = try Store.create(
            at: store, bundle: bundle, version: "Uni",
            seed: try folder.write(#"{"Person": [{"_pk": 1, "\#(Self.accented)": "ada"}]}"#, to: "seed.json"))
        _ = try await Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: folder.file("Mappings")))
            .migrate(storeAt: store)
        #expect(
            try SQLiteConnection(path: store, mode: .readOnly).rows(
                "SELECT \(quoteIdentifier(Self.accented)), full FROM Person") == [[.text("ada"), .text("ADA")]])
    }

    /// `Uni 2 <-\u{301}beta`: the former name starts with a combining mark, which makes one character of `-` and
    /// the mark to Swift's string search; the file's `<-` is found by bytes.
    @Test func theVersionOrderFileIsReadByBytes() throws {
        let folder = try TemporaryFolder()
        let text = #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let more = #"<entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
        let path = try BundleWriting.write("Uni", in: folder.path, versions: [("Uni", text), ("Uni 2", text + more)])
        _ = try folder.write(
            "# versions, oldest first\r\nUni\r\nUni 2 <-\u{301}beta <- Uni2\n#\u{301} a comment too\n",
            to: "Uni.xcdatamodeld/.remodel-version-order")
        let found = try Validation.validate(paths: [path]).diagnostics.map(\.description)
        #expect(found == [], "\(found)")
        let bundle = try ModelBundle(contentsOf: path)
        #expect(bundle.versionNames == ["Uni", "Uni 2"])
        #expect(bundle.formerVersionNames == ["\u{301}beta": "Uni 2", "Uni2": "Uni 2"])
    }

    /// `café` written with U+00E9 and `cafe` followed by U+0301 are two names to Core Data and SQLite; Swift's
    /// `String` takes them for one, and `validate` used to call them the same attribute. Now it says they are two
    /// names that Remodel's model cannot hold apart, with each one's scalars.
    @Test func twoNamesThatLookAlikeAreNotCalledTheSame() throws {
        let body = """
                <entity name="Person">
                    <attribute name="caf\u{E9}" optional="YES" attributeType="String"/>
                    <attribute name="cafe\u{301}" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Caf\u{E9}"/>
                <entity name="Cafe\u{301}"/>

            """
        let file = ValidationSupport.file
        let found = try ValidationSupport.diagnostics(body)
        #expect(
            found == [
                "\(file):5:26: error: attribute 'Person.cafe\u{301}' and attribute 'Person.caf\u{E9}' are two names that look alike (c a f e U+301 and c a f U+E9): Core Data and SQLite keep them apart, but a model that has both is one Remodel cannot read without mixing them up; rename one of them [equivalent-names]",
                "\(file):8:19: error: entity 'Cafe\u{301}' and entity 'Caf\u{E9}' of version 'Test' are two names that look alike (C a f e U+301 and C a f U+E9): Core Data and SQLite keep them apart, but a model that has both is one Remodel cannot read without mixing them up; rename one of them [equivalent-names]",
            ], "\(found)")
    }

    /// A sub-entity's `cafe\u{301}` beside the `café` it inherits (U+00E9) is refused the same way, naming both.
    @Test func aLookAlikeOfAnInheritedNameIsRefused() throws {
        let body = """
                <entity name="Shop" isAbstract="YES">
                    <attribute name="caf\u{E9}" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Bar" parentEntity="Shop">
                    <attribute name="cafe\u{301}" optional="YES" attributeType="String"/>
                </entity>

            """
        let file = ValidationSupport.file
        let found = try ValidationSupport.diagnostics(body)
        #expect(
            found == [
                "\(file):7:26: error: attribute 'Bar.cafe\u{301}' and attribute 'Shop.caf\u{E9}', which 'Bar' inherits, are two names that look alike (c a f e U+301 and c a f U+E9): Core Data and SQLite keep them apart, but a model that has both is one Remodel cannot read without mixing them up; rename one of them [equivalent-names]"
            ], "\(found)")
    }

    /// A name in a mapping file or an expression finds the model's name only when it is the same, byte for byte: a
    /// mapping that writes `cafe\u{301}` for the model's `café` names an attribute the model does not have.
    @Test func aNameSpelledWithOtherScalarsFindsNothing() throws {
        let cafe = "caf\u{E9}"
        let version = ModelVersion(
            name: "V", entities: [Entity(name: "Shop", attributes: [Attribute(name: cafe, type: .string)])])
        let shop = try #require(version.entity(named: "Shop"))
        #expect(version.attribute(named: cafe, in: shop) != nil)
        #expect(version.attribute(named: "cafe\u{301}", in: shop) == nil)
        #expect(version.entity(named: "Sho\u{301}p") == nil)
        let checker = ExpressionTypeChecker(model: version, entity: shop)
        #expect(throws: ExpressionDiagnostic.self) { try checker.check("$source.cafe\u{301}") }
        #expect(try checker.check("$source.\(cafe)").resultType.type == .string)
    }
}
