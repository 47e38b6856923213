import Foundation
import Testing

@testable import Remodel

/// One test per rule about inheritance, constraints, versions and reading, asserting the exact text.
struct StructureRuleTests {
    private let file = ValidationSupport.file

    @Test func reportsMissingParentEntity() throws {
        let body = """
                <entity name="Dog" parentEntity="Animal">
                    <attribute name="name" attributeType="String"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):3:38: error: entity 'Dog' has parent entity 'Animal', which does not exist; add an entity 'Animal' or choose another parent [missing-parent-entity]"
            ])
    }

    @Test func reportsInheritanceCycleOnce() throws {
        let body = """
                <entity name="A" parentEntity="B"/>
                <entity name="B" parentEntity="A"/>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):3:36: error: entity 'A' inherits from itself: 'A' -> 'B' -> 'A'; remove one of these parent entities [inheritance-cycle]"
            ])
    }

    @Test func reportsConstraintOnUnknownPropertyButAcceptsInheritedOne() throws {
        let body = """
                <entity name="Animal" isAbstract="YES">
                    <attribute name="tag" attributeType="String"/>
                </entity>
                <entity name="Dog" parentEntity="Animal">
                    <attribute name="name" attributeType="String"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="tag"/>
                            <constraint value="nickname"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):11:36: error: a uniqueness constraint of entity 'Dog' names 'nickname', which is not an attribute or relationship of 'Dog'; correct the name or remove it from the constraint [unknown-constraint-property]"
            ])
    }

    @Test func reportsFetchIndexOnUnknownProperty() throws {
        let body = """
                <entity name="Dog">
                    <attribute name="name" attributeType="String"/>
                    <fetchIndex name="byName">
                        <fetchIndexElement property="name" type="Binary" order="ascending"/>
                        <fetchIndexElement property="nmae" type="Binary" order="ascending"/>
                    </fetchIndex>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):7:42: error: fetch index 'byName' of entity 'Dog' names 'nmae', which is not an attribute or relationship of 'Dog'; correct the name or remove it from the index [unknown-index-property]"
            ])
    }

    @Test func acceptsWhatCoreDataAllows() throws {
        let body = """
                <entity name="Node" isAbstract="YES">
                    <attribute name="id" attributeType="UUID" usesScalarValueType="NO"/>
                    <attribute name="ref" optional="YES" attributeType="ObjectID"/>
                    <attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/>
                    <attribute name="place" optional="YES" attributeType="Composite" composite="Point"/>
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node" inverseName="owned" inverseEntity="Node"/>
                    <relationship name="owned" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Node" inverseName="owner" inverseEntity="Node"/>
                    <fetchedProperty name="siblings" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Node"/>
                    </fetchedProperty>
                </entity>
                <entity name="Leaf" parentEntity="Node">
                    <attribute name="weight" attributeType="Double" minValueString="0" maxValueString="10" defaultValueString="0.0" usesScalarValueType="YES"/>
                </entity>
                <composite name="Point">
                    <attribute name="x" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                </composite>

            """
        // A fetched property is Core Data's, and allowed; Remodel stores nothing for it and says so (MODELS.md).
        #expect(
            try ValidationSupport.diagnostics(body).map { $0.hasSuffix("[ignored-fetched-property]") } == [true])
    }

    // MARK: - Rules over files and bundles

    private func diagnostics(at name: String) throws -> (path: String, lines: [String]) {
        let path = ValidationSupport.fixtures.appendingPathComponent(name).path
        return (path, try Validation.validate(paths: [path]).diagnostics.map(\.description))
    }

    @Test func warnsAboutVersionsWithIdenticalHashesOnTheLaterOne() throws {
        let (path, lines) = try diagnostics(at: "Twins.xcdatamodeld")
        #expect(
            lines == [
                "\(path)/Twins 2.xcdatamodel/contents:2:1: warning: version 'Twins 2' has the same version hashes as version 'Twins', so a store's version cannot be told from its hashes; if the two versions should differ in storage, set a Hash Modifier (versionHashModifier) on the entity that changed, else remove one of them [identical-version-hash]"
            ])
    }

    @Test func keepsReaderRuleForMissingCurrentVersion() throws {
        let (path, lines) = try diagnostics(at: "MissingCurrent.xcdatamodeld")
        #expect(
            lines == [
                "\(path)/.xccurrentversion:6:2: error: the current version is 'Shop 2.xcdatamodel', but the bundle has no such version folder; choose an existing version in Xcode or fix .xccurrentversion [missing-current-version]"
            ])
    }

    @Test func keepsReaderRuleForMalformedXML() throws {
        let (path, lines) = try diagnostics(at: "Malformed.xcdatamodel")
        #expect(lines.count == 1)
        // libxml2's position and wording; the reader reports its last error, here the end of the file.
        #expect(lines.first?.hasPrefix("\(path)/contents:") == true)
        #expect(lines.first?.hasSuffix("[malformed-xml]") == true)
    }

    @Test func keepsReaderRuleForWrongRoot() throws {
        let (path, lines) = try diagnostics(at: "WrongRoot.xcdatamodel")
        #expect(
            lines == [
                "\(path)/contents:2:1: error: the root element is <plist>, but a Core Data model file starts with <model>; is this the right file? [wrong-root]"
            ])
    }
}
