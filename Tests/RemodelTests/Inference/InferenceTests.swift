import Testing

@testable import Remodel
@testable import RemodelModel

struct InferenceTests {
    private func infer(_ source: String, _ destination: String) throws -> MappingModel {
        MappingInference.infer(
            from: try makeVersion("A", source), to: try makeVersion("B", destination), modelName: "M")
    }

    private let person = """
        <entity name="Person">
            <attribute name="name" attributeType="String"/>
            <attribute name="age" optional="YES" attributeType="Integer 16"/>
        </entity>
        """

    @Test func identicalEntitiesAreCopied() throws {
        let mapping = try infer(person, person)
        let entity = try #require(mapping.mapping(toDestination: "Person"))
        #expect(entity.kind == .copy)
        #expect(entity.attributes.map(\.value?.text) == ["$source.name", "$source.age"])
        #expect(entity.attributes.allSatisfy { $0.provenance == .sameName })
        #expect(mapping.problems.isEmpty)
    }

    @Test func addedAttributesStartEmptyOrTakeTheDefault() throws {
        let destination = """
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Integer 16"/>
                <attribute name="nickname" optional="YES" attributeType="String"/>
                <attribute name="score" attributeType="Integer 32" defaultValueString="7"/>
            </entity>
            """
        let entity = try #require(try infer(person, destination).mapping(toDestination: "Person"))
        #expect(entity.kind == .transform)
        #expect(entity.attribute("nickname")?.provenance == .newAndEmpty)
        #expect(entity.attribute("nickname")?.value == nil)
        #expect(entity.attribute("score")?.provenance == .modelDefault("7"))
        #expect(entity.problems.isEmpty)
    }

    @Test func newRequiredAttributeWithoutDefaultIsRefused() throws {
        let destination = """
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="fullName" attributeType="String"/>
            </entity>
            """
        let mapping = try infer(person, destination)
        #expect(
            mapping.problems.map(\.description) == [
                #"Person.fullName: String attribute is new and required, with no default value; add to a mapping file: <attribute name="fullName" value="…"/>"#
            ])
    }

    @Test func removedEntitiesAndAttributesAreDropped() throws {
        let source =
            person + #"<entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>"#
        let destination = #"<entity name="Person"><attribute name="name" attributeType="String"/></entity>"#
        let mapping = try infer(source, destination)
        #expect(mapping.mapping(fromSource: "Note")?.kind == .remove)
        #expect(mapping.mapping(fromSource: "Note")?.provenance == .removed)
        let entity = try #require(mapping.mapping(toDestination: "Person"))
        #expect(entity.kind == .transform)
        #expect(entity.attributes.map(\.destination) == ["name"])
    }

    @Test func renamingIdentifierNamingTheSourceRenames() throws {
        let destination = """
            <entity name="Human" elementID="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="years" optional="YES" attributeType="Integer 16" elementID="age"/>
            </entity>
            """
        let entity = try #require(try infer(person, destination).mapping(toDestination: "Human"))
        #expect(entity.source == "Person")
        #expect(entity.provenance == .renamingIdentifier(from: "Person"))
        #expect(entity.attribute("years")?.value?.text == "$source.age")
        #expect(entity.attribute("years")?.provenance == .renamingIdentifier(from: "age"))
    }

    @Test func renamingIdentifierSharedWithTheSourceRenames() throws {
        let source =
            #"<entity name="Person"><attribute name="old" optional="YES" attributeType="String" elementID="tag-1"/></entity>"#
        let destination =
            #"<entity name="Person"><attribute name="new" optional="YES" attributeType="String" elementID="tag-1"/></entity>"#
        let entity = try #require(try infer(source, destination).mapping(toDestination: "Person"))
        #expect(entity.attribute("new")?.value?.text == "$source.old")
    }

    @Test(arguments: [
        ("Integer 16", "Integer 32", "$source.x"),
        ("Integer 16", "Integer 64", "$source.x"),
        ("Integer 32", "Integer 64", "$source.x"),
        ("Integer 32", "Double", "double($source.x)"),
        ("Float", "Double", "double($source.x)"),
        ("Integer 64", "Decimal", "decimal($source.x)"),
        ("Double", "String", "string($source.x)"),
        ("Date", "String", "string($source.x)"),
        ("Boolean", "String", "string($source.x)"),
        ("UUID", "String", "string($source.x)"),
    ])
    func losslessWideningIsInferred(from: String, to: String, expression: String) throws {
        let source = #"<entity name="E"><attribute name="x" optional="YES" attributeType="\#(from)"/></entity>"#
        let destination = #"<entity name="E"><attribute name="x" optional="YES" attributeType="\#(to)"/></entity>"#
        let mapping = try infer(source, destination)
        let attribute = try #require(mapping.mapping(toDestination: "E")?.attribute("x"))
        #expect(attribute.value?.text == expression)
        #expect(
            attribute.provenance == .widening(from: AttributeType(rawValue: from)!, to: AttributeType(rawValue: to)!))
        #expect(mapping.problems.isEmpty)
    }

    @Test(arguments: [
        (
            "String", "Integer 32",
            #"Item.code: String → Integer 32 cannot be inferred (text need not be a valid Integer 32); add to a mapping file: <attribute name="code" value="int($source.code)"/>"#
        ),
        (
            "Integer 32", "Integer 16",
            #"Item.code: Integer 32 → Integer 16 cannot be inferred (narrowing can overflow); add to a mapping file: <attribute name="code" value="int($source.code)"/>"#
        ),
        (
            "Integer 64", "Double",
            #"Item.code: Integer 64 → Double cannot be inferred (Integer 64 → Double loses precision above 2^53); add to a mapping file: <attribute name="code" value="double($source.code)"/>"#
        ),
        (
            "Double", "Integer 64",
            #"Item.code: Double → Integer 64 cannot be inferred (converting Double to an integer loses the fraction); add to a mapping file: <attribute name="code" value="int($source.code)"/>"#
        ),
    ])
    func lossyChangesAreRefusedWithWhatToWrite(from: String, to: String, message: String) throws {
        let source = #"<entity name="Item"><attribute name="code" optional="YES" attributeType="\#(from)"/></entity>"#
        let destination =
            #"<entity name="Item"><attribute name="code" optional="YES" attributeType="\#(to)"/></entity>"#
        #expect(try infer(source, destination).problems.map(\.description) == [message])
    }

    @Test func optionalBecomingRequiredNeedsADefault() throws {
        let required =
            #"<entity name="Person"><attribute name="name" attributeType="String"/><attribute name="age" attributeType="Integer 16"/></entity>"#
        #expect(
            try infer(person, required).problems.map(\.description) == [
                #"Person.age: was optional and is now required with no default value, so objects where it is nil cannot be carried over; add to a mapping file: <attribute name="age" value="$source.age ?? …"/>"#
            ])
        let withDefault =
            #"<entity name="Person"><attribute name="name" attributeType="String"/><attribute name="age" attributeType="Integer 16" defaultValueString="0"/></entity>"#
        #expect(try infer(person, withDefault).problems.isEmpty)
    }

    private func library(books: String) -> String {
        """
        <entity name="Author">
            <relationship name="books" \(books) deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        </entity>
        <entity name="Book">
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
        </entity>
        """
    }

    @Test func toOneBecomingToManyAndOrderChangesAreInferred() throws {
        let toOne = library(books: #"optional="YES" maxCount="1""#)
        let toMany = library(books: #"optional="YES" toMany="YES""#)
        let ordered = library(books: #"optional="YES" toMany="YES" ordered="YES""#)
        #expect(try infer(toOne, toMany).problems.isEmpty)
        #expect(try infer(toMany, ordered).problems.isEmpty)
        #expect(try infer(ordered, toMany).problems.isEmpty)
        #expect(try infer(toOne, toMany).mapping(toDestination: "Author")?.relationship("books")?.source == "books")
    }

    @Test func toManyBecomingToOneIsRefused() throws {
        let problems = try infer(
            library(books: #"optional="YES" toMany="YES""#), library(books: #"optional="YES" maxCount="1""#)
        ).problems
        #expect(problems.map(\.property) == ["books"])
        #expect(problems.first?.message.hasPrefix("was to-many and is now to-one") == true)
    }

    @Test func propertiesMovedUpToANewParentStillMap() throws {
        let source = #"<entity name="Book"><attribute name="title" attributeType="String"/></entity>"#
        let destination = """
            <entity name="Item" isAbstract="YES"><attribute name="title" attributeType="String"/></entity>
            <entity name="Book" parentEntity="Item"><attribute name="pages" optional="YES" attributeType="Integer 32"/></entity>
            """
        let mapping = try infer(source, destination)
        let book = try #require(mapping.mapping(toDestination: "Book"))
        #expect(book.attribute("title")?.value?.text == "$source.title")
        #expect(mapping.mapping(toDestination: "Item")?.kind == .add)
        #expect(mapping.problems.isEmpty)
    }

    @Test func concreteEntityBecomingAbstractIsRefused() throws {
        let source = #"<entity name="Book"><attribute name="title" attributeType="String"/></entity>"#
        let destination =
            #"<entity name="Book" isAbstract="YES"><attribute name="title" attributeType="String"/></entity>"#
        #expect(try infer(source, destination).problems.count == 1)
    }
}
