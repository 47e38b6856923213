import Testing

@testable import Remodel
@testable import RemodelModel

struct ModelReaderTests {
    @Test func readsEntitiesWithPositions() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Person" representedClassName="Person">
                    <attribute name="name" attributeType="String"/>
                    <attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
                </entity>
            </model>
            """
        let root = try XMLDocumentReader.parse(Array(xml.utf8), file: "m.xml")
        let (version, diagnostics) = ModelFileReader.version(from: root, path: "m.xml", versionName: "M")
        #expect(diagnostics.isEmpty)
        let person = try #require(version?.entity(named: "Person"))
        #expect(person.source.location == SourceLocation(file: "m.xml", line: 3, column: 5))
        #expect(person.attributes.map(\.name) == ["name", "age"])
        #expect(person.attributes[0].isOptional == false)
        #expect(person.attributes[1].type == .integer16)
        #expect(
            person.attributes[1].source.location(of: "attributeType")
                == SourceLocation(file: "m.xml", line: 5, column: 61))
    }

    /// Where `text`'s first occurrence in `xml` ends, as a position: a value starts right after `name="`.
    private static func position(after text: String, in xml: String) throws -> Remodel.SourceLocation {
        let lines = xml.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains(text) })
        let start = try #require(lines[line].range(of: text))
        return SourceLocation(
            file: "m.xml", line: line + 1,
            column: lines[line].utf8.distance(from: lines[line].startIndex, to: start.upperBound) + 1)
    }

    @Test func versionsSharingElementRecordsKeepTheirOwnPositions() throws {
        let first = """
            <model>
                <entity name="Person">
                    <attribute name="name" optional="YES"
                        attributeType="String"/>
                </entity>
            </model>
            """
        // The same tags two lines further down, then indented further (their positions relative to the element move).
        let second = first.replacingOccurrences(of: "<model>", with: "<model>\n\n")
        let third = second.replacingOccurrences(of: "        <attribute", with: "            <attribute")
        func read(_ xml: String) throws -> ModelVersion {
            let root = try XMLDocumentReader.parse(Array(xml.utf8), file: "m.xml")
            return try #require(ModelFileReader.version(from: root, path: "m.xml", versionName: "M").0)
        }
        let pool = ElementSourcePool()
        for xml in [first, second, third] {
            let alone = try read(xml)
            var shared = try read(xml)
            shared.shareSources(in: pool)
            #expect(shared == alone)
            let attribute = try #require(shared.entity(named: "Person")?.attributes.first)
            #expect(attribute.source.location(of: "name") == (try Self.position(after: "name=\"n", in: xml)).before)
            #expect(
                attribute.source.location(of: "attributeType")
                    == (try Self.position(after: "attributeType=\"S", in: xml)).before)
            #expect(
                attribute.source.attributeLocations["optional"]
                    == (try Self.position(after: "optional=\"Y", in: xml)).before)
            #expect(attribute.source.attributes == ["name": "name", "optional": "YES", "attributeType": "String"])
        }
    }

    @Test func anElementRecordMovedKeepsItsAttributesWhereTheyAre() {
        var source = ElementSource(
            location: SourceLocation(file: "a", line: 10, column: 3), attributes: ["x": "1", "y": "2"],
            attributeLocations: [
                "x": SourceLocation(file: "a", line: 10, column: 8), "y": SourceLocation(file: "b", line: 2, column: 2),
            ])
        source.location = SourceLocation(file: "a", line: 20, column: 1)
        #expect(source.location(of: "x") == SourceLocation(file: "a", line: 10, column: 8))
        #expect(source.location(of: "y") == SourceLocation(file: "b", line: 2, column: 2))
        #expect(source.location(of: "z") == SourceLocation(file: "a", line: 20, column: 1))
    }

    @Test func reportsMalformedXMLWithLineAndColumn() {
        let xml = "<model>\n  <entity name=\"A\">\n</model>\n"
        #expect(throws: XMLDocumentReader.Failure.self) {
            try XMLDocumentReader.parse(Array(xml.utf8), file: "bad.xml")
        }
    }
}

extension Remodel.SourceLocation {
    /// The position one character before.
    fileprivate var before: Remodel.SourceLocation { SourceLocation(file: file, line: line, column: column - 1) }
}
