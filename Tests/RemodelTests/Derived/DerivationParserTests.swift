import Foundation
import Testing

@testable import Remodel

/// Core Data's derivation grammar as ``Derivation`` reads it: every form, the text Remodel writes for it, and where
/// each mistake is.
struct DerivationParserTests {
    @Test(arguments: [
        ("name", "name"),
        (" author . name ", "author.name"),
        ("canonical:(title)", "canonical:(title)"),
        ("lowercase: ( author.name )", "lowercase:(author.name)"),
        ("books.@count", "books.@count"),
        ("count:(books)", "books.@count"),
        ("books.pages.@sum", "books.pages.@sum"),
        ("books.pages.@total", "books.pages.@sum"),
        ("sum:(books.pages)", "books.pages.@sum"),
        ("average:(books.pages)", "books.pages.@avg"),
        ("library.books.pages.@max", "library.books.pages.@max"),
        ("min:(books.published)", "books.published.@min"),
        ("now()", "now()"),
    ])
    func readsEveryForm(_ text: String, _ written: String) throws {
        #expect(try Derivation(parsing: text).text == written)
    }

    @Test(arguments: [
        ("firstName ++ \" \" ++ lastName", 10, false),
        ("books.@sum.pages", 6, false),
        ("books.@distinctUnionOfObjects", 6, true),
        ("FUNCTION(name, 'x')", 0, true),
        ("stddev:(books.pages)", 0, true),
        ("lowercase(name)", 0, false),
        ("books.@sum", 6, false),
        ("$source.name", 0, false),
        ("", 0, false),
        ("books.", 6, false),
        ("now(x)", 4, false),
        ("count:(books", 12, false),
    ])
    func refusesWhatCoreDataDoesNotTake(_ text: String, _ offset: Int, _ unsupported: Bool) {
        #expect {
            try Derivation(parsing: text)
        } throws: { error in
            guard let error = error as? Derivation.ParseError else { return false }
            return error.offset == offset && error.isUnsupported == unsupported
        }
    }

    @Test func theVersionHashReadsTheExpressionAsRemodelWritesIt() throws {
        func version(_ expression: String, derived: Bool = true) throws -> ModelVersion {
            try makeVersion(
                "V",
                """
                <entity name="Person">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="key" optional="YES" attributeType="String"\(derived ? " derived=\"YES\"" : "") derivationExpression="\(expression)"/>
                </entity>
                """)
        }
        let spaced = try version(" lowercase: ( name ) ")
        let tight = try version("lowercase:(name)")
        let other = try version("uppercase:(name)")
        let plain = try version("lowercase:(name)", derived: false)
        let hash = { (version: ModelVersion) in version.entityHashes["Person"] }
        #expect(hash(spaced) == hash(tight))
        #expect(hash(tight) != hash(other))
        #expect(hash(tight) != hash(plain))
        #expect(try #require(plain.entity(named: "Person")).attributes[1].isDerived == false)
        // An attribute that is not derived hashes as it always did: the recipe's line is unchanged.
        #expect(
            plain.canonicalDescription(of: try #require(plain.entity(named: "Person"))).contains("derived") == false)
        #expect(
            tight.canonicalDescription(of: try #require(tight.entity(named: "Person"))).contains(
                #"attribute "key" "String" optional 1 modifier "" derived "lowercase:(name)""#))
    }
}
