import Foundation
import Testing

@testable import Remodel

/// `remodel validate` on derivation expressions, through the command line: each rule, at the line and column of
/// the character at fault inside `derivationExpression` (escaped quotes counted as Xcode writes them).
struct DerivationValidateTests {
    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Person" representedClassName="Person">
                <attribute name="firstName" optional="YES" attributeType="String"/>
                <attribute name="lastName" optional="YES" attributeType="String"/>
                <attribute name="fullLabel" optional="YES" attributeType="String" derived="YES" derivationExpression="firstName ++ &quot; &quot; ++ lastName"/>
                <attribute name="titles" optional="YES" attributeType="String" derived="YES" derivationExpression="books.title"/>
                <attribute name="nothing" optional="YES" attributeType="String" derived="YES"/>
                <attribute name="total" optional="YES" attributeType="Decimal" derived="YES" derivationExpression="books.price.@sum"/>
                <attribute name="kvc" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="books.@sum.pages"/>
                <attribute name="plain" optional="YES" attributeType="String" derivationExpression="firstName"/>
                <attribute name="distinct" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="books.@distinctUnionOfObjects"/>
                <attribute name="count" optional="YES" attributeType="String" derived="YES" derivationExpression="books.@count"/>
                <attribute name="shout" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(lastNme)"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            </entity>
            <entity name="Book" representedClassName="Book">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="pages" optional="YES" attributeType="Integer 32"/>
                <attribute name="price" optional="YES" attributeType="Decimal"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person"/>
            </entity>
        </model>
        """

    @Test func everyRuleAtItsLineAndColumn() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(Self.contents, to: "contents")
        let result = try RemodelProcess.run(["validate", path])
        #expect(result.status == 1)
        let grammar =
            "a derivation is a key path (name, author.name), lowercase:, uppercase: or canonical: of one, an aggregate over a to-many relationship (books.@count, books.pages.@sum) or now()"
        let expected = [
            "\(path):6:121: error: Person.fullLabel: Core Data's derivations have no operators, and '++' is none of theirs (no string concatenation either); \(grammar) [derivation-syntax]",
            "\(path):7:108: error: Person.titles = books.title: 'books' of Person is a to-many relationship: a key path goes through to-one relationships; aggregate over it instead (books.@count, books.….@sum) [derivation-invalid]",
            "\(path):8:82: error: Person.nothing is derived but has no derivationExpression, so the store cannot compute it; give one (such as books.@count) or untick Derived [derivation-missing]",
            "\(path):9:114: error: Person.total = books.price.@sum: @sum of 'price', which is Decimal: Remodel does not aggregate Decimal values (SQLite would compute them as binary floating point) [derivation-unsupported]",
            "\(path):10:115: error: Person.kvc: Core Data takes an operator only at the end of a key path (it refuses books.@sum.pages as a misplaced operator); write books.pages.@sum [derivation-syntax]",
            "\(path):11:93: warning: Person.plain has a derivationExpression but is not derived, so it is a plain attribute and the expression is ignored; tick Derived in Xcode (derived=\"YES\") or remove the expression [derivation-ignored]",
            "\(path):12:120: error: Person.distinct: @distinctUnionOfObjects is a key path operator Remodel does not compute; the aggregates are @count, @sum, @avg, @min and @max [derivation-unsupported]",
            "\(path):13:107: error: Person.count = books.@count: @count gives a whole number, but Person.count is String; make it an Integer 16, 32 or 64 [derivation-invalid]",
            "\(path):14:118: error: Person.shout = uppercase:(lastNme): 'lastNme' of Person is nothing: Person has no attribute of that name [derivation-invalid]",
            "Checked 1 model (1 version): 8 errors, 1 warning.",
        ]
        #expect(result.output.split(separator: "\n").map(String.init) == expected)
    }

    @Test func aMappingFileMayNotGiveADerivedAttributeAValue() throws {
        let folder = try TemporaryFolder()
        let person = """
            <entity name="Person" representedClassName="Person">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="key" optional="YES" attributeType="String" derived="YES" derivationExpression="lowercase:(name)"/>
            </entity>
            """
        let bundle = try BundleWriting.write(
            "People", in: folder.path,
            versions: [
                ("People", person.replacingOccurrences(of: "lowercase", with: "uppercase")), ("People 2", person),
            ])
        let mapping = try folder.write(
            """
            <mapping model="People" sourceVersion="People" destinationVersion="People 2">
              <entity source="Person" destination="Person">
                <attribute name="key" value="$source.name"/>
              </entity>
            </mapping>
            """, to: "People.xml")
        let result = try RemodelProcess.run(["validate", bundle, mapping])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "\(mapping):3:22: error: Person.key is derived (lowercase:(name)): the store computes it, so a mapping gives it no value; remove this line [mapping-derived-attribute]"
            ), "\(result.output)")
    }
}
