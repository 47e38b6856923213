import Testing

@testable import Remodel

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

    @Test func reportsMalformedXMLWithLineAndColumn() {
        let xml = "<model>\n  <entity name=\"A\">\n</model>\n"
        #expect(throws: XMLDocumentReader.Failure.self) {
            try XMLDocumentReader.parse(Array(xml.utf8), file: "bad.xml")
        }
    }
}
