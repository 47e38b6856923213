import Testing

@testable import Remodel
@testable import RemodelModel

struct MappingFileTests {
    private let v1 = """
        <entity name="Person">
            <attribute name="firstName" attributeType="String"/>
            <attribute name="lastName" attributeType="String"/>
        </entity>
        <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>
        """
    private let v2 = """
        <entity name="Person">
            <attribute name="fullName" attributeType="String"/>
        </entity>
        <entity name="Tag"><attribute name="name" attributeType="String"/></entity>
        """

    private func bundle() throws -> ModelBundle {
        makeBundle("Library", try makeVersion("Library", v1), try makeVersion("Library 2", v2))
    }

    private func read(_ xml: String) throws -> MappingFile {
        let root = try XMLDocumentReader.parse(Array(xml.utf8), file: "map.xml")
        let (file, diagnostics) = MappingFileReader.mappingFile(from: root, path: "map.xml")
        #expect(diagnostics.isEmpty)
        return try #require(file)
    }

    @Test func fileValuesReplaceInferredOnesAndClearTheirProblems() throws {
        let file = try read(
            """
            <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
              <entity source="Person" destination="Person">
                <attribute name="fullName" value="$source.firstName + ' ' + $source.lastName"/>
              </entity>
            </mapping>
            """)
        let (mapping, diagnostics) = MappingResolver.resolve(file: file, bundle: try bundle())
        #expect(diagnostics.isEmpty)
        let person = try #require(mapping?.mapping(toDestination: "Person"))
        let fullName = try #require(person.attribute("fullName"))
        #expect(fullName.value?.text == "$source.firstName + ' ' + $source.lastName")
        #expect(fullName.provenance == .explicit(SourceLocation(file: "map.xml", line: 3, column: 5)))
        #expect(fullName.value?.location == SourceLocation(file: "map.xml", line: 3, column: 39))
        #expect(mapping?.mapping(fromSource: "Note")?.kind == .remove)
        #expect(mapping?.mapping(toDestination: "Tag")?.kind == .add)
        #expect(mapping?.problems.isEmpty == true)
    }

    @Test func withoutTheFileTheRequiredAttributeIsReportedWhereTheFileWouldSayIt() throws {
        let file = try read(#"<mapping model="Library" sourceVersion="Library" destinationVersion="Library 2"/>"#)
        let (_, diagnostics) = MappingResolver.resolve(file: file, bundle: try bundle())
        #expect(
            diagnostics.map(\.description) == [
                #"map.xml:1:1: error: Person.fullName: String attribute is new and required, with no default value; add to a mapping file: <attribute name="fullName" value="…"/> [mapping-incomplete]"#
            ])
    }

    @Test func unknownNamesAreReportedAtTheirValueWithASuggestion() throws {
        let file = try read(
            """
            <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
              <entity source="Persn" destination="Person"/>
              <entity source="Person" destination="Person">
                <attribute name="fulName" value="'x'"/>
                <attribute name="fullName" value="'a'"/>
                <attribute name="fullName" value="'b'"/>
              </entity>
            </mapping>
            """)
        let (_, diagnostics) = MappingResolver.resolve(file: file, bundle: try bundle())
        #expect(
            diagnostics.map(\.description) == [
                "map.xml:2:19: error: the source version 'Library' has no entity 'Persn'; did you mean 'Person'? [mapping-unknown-entity]",
                "map.xml:4:22: error: Person in 'Library 2' has no stored attribute 'fulName'; did you mean 'fullName'? [mapping-unknown-attribute]",
                "map.xml:6:22: error: Person.fullName is given twice; the first value is at line 5, column 5: keep one [mapping-duplicate-attribute]",
            ])
    }

    @Test func unknownModelAndVersionAreReported() throws {
        let wrongModel = try read(#"<mapping model="Shop" sourceVersion="Library" destinationVersion="Library 2"/>"#)
        #expect(
            MappingResolver.resolve(file: wrongModel, bundle: try bundle()).1.map(\.description) == [
                "map.xml:1:17: error: the mapping is for model 'Shop', but the model given is 'Library' [mapping-unknown-model]"
            ])
        let wrongVersion = try read(
            #"<mapping model="Library" sourceVersion="Library" destinationVersion="Library 3"/>"#)
        #expect(
            MappingResolver.resolve(file: wrongVersion, bundle: try bundle()).1.map(\.description) == [
                "map.xml:1:70: error: model 'Library' has no version 'Library 3'; its versions are 'Library', 'Library 2' [mapping-unknown-version]"
            ])
    }

    @Test func structuralMistakesAreDiagnosed() throws {
        let xml = """
            <mapping model="Library" sourceVersion="Library">
              <entity/>
              <entiti source="A"/>
            </mapping>
            """
        let root = try XMLDocumentReader.parse(Array(xml.utf8), file: "map.xml")
        let (_, diagnostics) = MappingFileReader.mappingFile(from: root, path: "map.xml")
        #expect(
            diagnostics.map(\.description) == [
                #"map.xml:1:1: error: <mapping> needs a destinationVersion="…" attribute [mapping-missing-attribute]"#,
                #"map.xml:2:3: error: <entity> needs source="…", destination="…" or both [mapping-missing-attribute]"#,
                "map.xml:3:3: error: unexpected <entiti> here; expected <entity> [mapping-unknown-element]",
            ])
    }

    @Test func expressionOffsetsMapBackThroughEntityReferences() throws {
        let file = try read(
            """
            <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
              <entity source="Person" destination="Person">
                <attribute name="fullName" value="&quot;a&quot; + $source.firstName"/>
              </entity>
            </mapping>
            """)
        let value = try #require(file.entities.first?.attributes.first?.value)
        #expect(value.text == "\"a\" + $source.firstName")
        #expect(value.location(atOffset: 0) == SourceLocation(file: "map.xml", line: 3, column: 39))
        #expect(value.location(atOffset: 4) == SourceLocation(file: "map.xml", line: 3, column: 53))
    }

    @Test func anInferredFileReadBackMapsExactlyAsInference() throws {
        let source = try makeVersion(
            "Library",
            """
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="years" optional="YES" attributeType="Integer 16"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            </entity>
            <entity name="Book">
                <attribute name="title" attributeType="String"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person"/>
            </entity>
            <entity name="Note"/>
            """)
        let destination = try makeVersion(
            "Library 2",
            """
            <entity name="Author" elementID="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Integer 64" elementID="years"/>
                <attribute name="score" attributeType="Double" defaultValueString="1.5"/>
                <relationship name="books" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            </entity>
            <entity name="Book">
                <attribute name="title" attributeType="String"/>
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            </entity>
            <entity name="Tag"/>
            """)
        let bundle = makeBundle("Library", source, destination)
        let inferred = MappingInference.infer(from: source, to: destination, modelName: "Library")
        let text = MappingFileWriter.text(for: inferred)
        let root = try XMLDocumentReader.parse(Array(text.utf8), file: "inferred.xml")
        let (file, readDiagnostics) = MappingFileReader.mappingFile(from: root, path: "inferred.xml")
        #expect(readDiagnostics.isEmpty)
        let (merged, diagnostics) = MappingResolver.resolve(file: try #require(file), bundle: bundle)
        #expect(diagnostics.isEmpty)
        let mergedMapping = try #require(merged)
        #expect(mergedMapping.entities.count == inferred.entities.count)
        for entity in inferred.entities {
            let other = try #require(
                mergedMapping.entities.first { $0.source == entity.source && $0.destination == entity.destination })
            #expect(other.filter == entity.filter)
            #expect(other.attributes.map(\.destination) == entity.attributes.map(\.destination))
            #expect(other.attributes.map(\.value?.text) == entity.attributes.map(\.value?.text))
            #expect(other.relationships.map(\.source) == entity.relationships.map(\.source))
        }
    }
}
