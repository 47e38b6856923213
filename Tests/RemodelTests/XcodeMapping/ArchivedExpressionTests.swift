import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Archived `NSExpression`s: every expression of the corpus decoded, and every kind of
/// expression archived by hand, decoded back to the same tree and translated.
struct ArchivedExpressionTests {
    typealias E = XcodeExpression

    private static func source(_ path: String) -> E { E(.keyPath(E(.variable("source")), path)) }
    private static func constant(_ value: XcodeConstant) -> E { E(.constant(value)) }
    private static func call(_ selector: String, _ arguments: E...) -> E {
        E(.function(operand: nil, selector: selector, arguments: arguments))
    }
    private static func compare(_ left: E, _ comparison: XcodeComparison, _ right: E) -> XcodePredicate {
        XcodePredicate(.comparison(left, comparison, right, modifier: .direct, options: ""))
    }

    @Test(
        .tags(.corpus), .skippable(.corpus),
        .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func everyExpressionOfTheCorpusDecodes() throws {
        let expected: [(String, String, String, String)] = [
            (
                "JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V2.FromV1", "numberOfFlippers",
                "$source.numberOfFlagella"
            ),
            ("JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V2.FromV1", "hasHead", "YES"),
            (
                "JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V1.FromV2", "numberOfFlagella",
                "$source.numberOfFlippers"
            ),
            ("JohnEstropia__CoreStore", "OrganismV3ToV2", "numberOfFlippers", "$source.numberOfLimbs"),
            ("wireapp__wire-ios-data-model", "migration2.54", "mutedStatus", "$source.isSilenced"),
            (
                "alemar11__CoreDataPlus", "V2toV3", "previousOwners",
                #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#
            ),
            (
                "alemar11__CoreDataPlus", "V2toV3", "previousCars",
                #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "cars", $source.cars)"#
            ),
        ]
        for (repository, name, property, text) in expected {
            let bytes = try XcodeCorpus.data(
                XcodeCorpus.mapping(repository, name), attribute: "valueexpressiondata", property: property)
            #expect(
                try XcodeExpressionDecoder.expression(fromArchive: bytes).description == text, "\(name) \(property)")
        }
    }

    /// Every kind of expression, archived as Foundation archives it, decodes to the same tree
    /// and translates to the Remodel text beside it (nil: refused with the message beside it).
    static let kinds: [(E, String)] = [
        (constant(.string("it's \"ok\"\n")), #"'it\'s "ok"\n'"#),
        (constant(.integer(-42)), "-42"),
        (constant(.real(2.5)), "2.5"),
        (constant(.real(3)), "3.0"),
        (constant(.bool(true)), "true"),
        (constant(.null), "nil"),
        (constant(.date(86_400)), "refused: a date constant"),
        (constant(.data([1, 2])), "refused: a data constant"),
        (E(.evaluatedObject), "refused: SELF is an object"),
        (E(.variable("source")), "refused: $source alone is the source object"),
        (E(.variable("manager")), "refused: the variable $manager has no value"),
        (source("age"), "$source.age"),
        (source("favoriteBook.title"), "$source.favoriteBook.title"),
        (source("books.@count"), "$source.books.@count"),
        (source("books.@sum.pages"), "refused: the collection operator @sum"),
        (call("add:to:", source("age"), constant(.integer(1))), "($source.age + 1)"),
        (call("from:subtract:", source("age"), constant(.integer(1))), "($source.age - 1)"),
        (call("multiply:by:", source("score"), constant(.real(0.5))), "($source.score * 0.5)"),
        (call("divide:by:", source("age"), constant(.integer(2))), "(double($source.age) / double(2))"),
        (call("modulus:by:", source("age"), constant(.integer(7))), "($source.age % 7)"),
        (call("lowercase:", source("name")), "lowercase($source.name)"),
        (call("uppercase:", source("name")), "uppercase($source.name)"),
        (call("abs:", source("age")), "($source.age < 0 ? -$source.age : $source.age)"),
        (call("now"), "now()"),
        (call("sqrt:", source("score")), "refused: the function sqrt: has no Remodel translation"),
        (E(.function(operand: source("name"), selector: "uppercaseString", arguments: [])), "uppercase($source.name)"),
        (E(.function(operand: source("age"), selector: "stringValue", arguments: [])), "string($source.age)"),
        (E(.function(operand: source("name"), selector: "integerValue", arguments: [])), "int($source.name)"),
        (E(.function(operand: source("name"), selector: "hash", arguments: [])), "refused: the method hash"),
        (
            E(.function(operand: E(.variable("entityPolicy")), selector: "colorFor:", arguments: [source("name")])),
            "refused: FUNCTION($entityPolicy, \"colorFor:\", …) calls the entity mapping's migration policy class"
        ),
        (
            E(
                .function(
                    operand: E(.variable("manager")), selector: RelationshipTranslation.byEntityMapping,
                    arguments: [constant(.string("BookToBook")), source("books")])),
            "refused: FUNCTION($manager"
        ),
        (E(.aggregate([constant(.integer(1)), constant(.integer(2))])), "refused: a list {…} is not a single value"),
        (
            E(
                .ternary(
                    compare(source("age"), .greaterThanOrEqual, constant(.integer(18))), constant(.string("adult")),
                    constant(.string("minor")))),
            "((($source.age >= 18) ?? false) ? 'adult' : 'minor')"
        ),
        (
            E(
                .ternary(
                    XcodePredicate(
                        .and([
                            compare(source("active"), .equal, constant(.bool(true))),
                            XcodePredicate(.not(compare(source("name"), .equal, constant(.null)))),
                        ])), source("name"), constant(.string("?")))),
            "(((($source.active == true) ?? false) && !($source.name == nil)) ? $source.name : '?')"
        ),
        (
            E(
                .ternary(
                    XcodePredicate(
                        .or([
                            XcodePredicate(.constant(false)),
                            compare(source("nickname"), .notEqual, constant(.string("x"))),
                        ])), constant(.integer(1)), constant(.integer(0)))),
            "((false || !($source.nickname == 'x')) ? 1 : 0)"
        ),
        (
            E(.unsupported("NSSubqueryExpression")),
            "refused: NSSubqueryExpression expressions have no Remodel translation"
        ),
    ]

    @Test(arguments: kinds.indices)
    func everyKindRoundTripsAndTranslates(index: Int) throws {
        let (expression, expected) = Self.kinds[index]
        let decoded = try XcodeExpressionDecoder.expression(fromArchive: ExpressionArchiver.archive(expression))
        #expect(decoded == expression)
        let translator = XcodeExpressionTranslator(checker: LibraryFixture.checker)
        do {
            let text = try translator.value(decoded)
            #expect(text.text == expected)
            // The translation is Remodel: it parses and type-checks against the source entity.
            _ = try LibraryFixture.checker.check(text.text)
        } catch let refusal as TranslationRefusal {
            #expect(expected.hasPrefix("refused: "), "\(refusal.message)")
            #expect(refusal.message.hasPrefix(expected.dropFirst("refused: ".count)), "\(refusal.message)")
        }
    }

    /// Foundation writes `FUNCTION($source, "valueForKey:", "x")` as a function; it is the key path `$source.x`.
    @Test func valueForKeyCallsAreKeyPaths() throws {
        for selector in ["valueForKey:", "valueForKeyPath:"] {
            let call = E(
                .function(
                    operand: E(.variable("source")), selector: selector, arguments: [Self.constant(.string("age"))]))
            #expect(
                try XcodeExpressionDecoder.expression(fromArchive: ExpressionArchiver.archive(call))
                    == Self.source("age"))
        }
    }

    /// Relationship mappings: both `$manager` forms, `$source.rel` and `nil`, and what is refused.
    @Test func relationshipExpressionsNameTheSourceRelationshipTheyRead() throws {
        let manager = E(.variable("manager"))
        let cases: [(E, RelationshipTranslation?)] = [
            (
                E(
                    .function(
                        operand: manager, selector: RelationshipTranslation.byEntityMapping,
                        arguments: [Self.constant(.string("PersonToPerson")), Self.source("owner")])),
                RelationshipTranslation(sourceRelationship: "owner", entityMapping: "PersonToPerson")
            ),
            (
                E(
                    .function(
                        operand: manager, selector: RelationshipTranslation.bySourceRelationship,
                        arguments: [Self.constant(.string("cars")), Self.source("cars")])),
                RelationshipTranslation(sourceRelationship: "cars", entityMapping: nil)
            ),
            (Self.source("cars"), RelationshipTranslation(sourceRelationship: "cars", entityMapping: nil)),
            (Self.constant(.null), RelationshipTranslation(sourceRelationship: nil, entityMapping: nil)),
            (
                E(
                    .function(
                        operand: manager, selector: RelationshipTranslation.byEntityMapping,
                        arguments: [Self.constant(.string("A")), Self.source("owner.cars")])), nil
            ),
            (E(.function(operand: manager, selector: "sourceContext", arguments: [])), nil),
            (Self.constant(.integer(1)), nil),
        ]
        for (expression, expected) in cases {
            let decoded = try XcodeExpressionDecoder.expression(fromArchive: ExpressionArchiver.archive(expression))
            #expect((try? RelationshipTranslation.translate(decoded)) == expected, "\(expression)")
        }
    }

    @Test func damagedArchivesAreRefusedWithTheReason() throws {
        var builder = KeyedArchiveBuilder()
        let variable = builder.object("NSVariableExpression", [:])
        func message(_ bytes: [UInt8]) -> String {
            do {
                _ = try XcodeExpressionDecoder.expression(fromArchive: bytes)
                return "decoded"
            } catch {
                return error.message
            }
        }
        #expect(
            message(builder.archive(root: variable)).contains("NSVariableExpression (object 2) has no NSVariable name"))
        #expect(message(PropertyListWriter.encode(.array([]))) == "the property list is not a dictionary")
        #expect(
            message(PropertyListWriter.encode(.dictionary(["$archiver": .string("NSArchiver")])))
                == "the property list is not an NSKeyedArchiver archive (its $archiver is NSArchiver)")
        // An expression that is its own operand.
        var cyclic = KeyedArchiveBuilder()
        let selector = cyclic.add(.string("uppercaseString"))
        let function = cyclic.object("NSFunctionExpression", ["NSSelectorName": selector, "NSOperand": .uid(3)])
        #expect(function == .uid(3))
        #expect(message(cyclic.archive(root: function)).contains("nests more than 64 levels deep, or refers to itself"))
        #expect(message([1, 2, 3]).hasPrefix("not a binary property list"))
    }
}
