import Foundation
import Testing

@testable import Remodel

/// The rules of composites themselves, with line and column: no composite inside itself, members Core Data can
/// keep, distinct member names; and uniqueness constraints and fetch indexes that name members.
struct CompositeValidationTests {
    private let file = ValidationSupport.file

    @Test func reportsACompositeThatContainsItself() throws {
        let body = """
                <entity name="Shape">
                    <attribute name="outline" optional="YES" attributeType="Composite" composite="Ring"/>
                </entity>
                <composite name="Ring">
                    <attribute name="inner" optional="YES" attributeType="Composite" composite="Band"/>
                </composite>
                <composite name="Band">
                    <attribute name="next" optional="YES" attributeType="Composite" composite="Ring"/>
                </composite>

            """
        let found = try ValidationSupport.diagnostics(body)
        #expect(
            found == [
                "\(file):6:22: error: composite 'Ring' contains itself (Ring → Band → Ring); a composite value would never end [composite-cycle]",
                "\(file):9:22: error: composite 'Band' contains itself (Band → Ring → Band); a composite value would never end [composite-cycle]",
            ], "\(found)")
    }

    @Test func reportsMembersACompositeCannotKeep() throws {
        let body = """
                <entity name="Shape">
                    <attribute name="outline" optional="YES" attributeType="Composite" composite="Ring"/>
                </entity>
                <composite name="Ring">
                    <attribute name="owner" optional="YES" attributeType="ObjectID"/>
                    <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
                    <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    <attribute name="width" optional="YES" attributeType="Double"/>
                    <attribute name="width" optional="YES" attributeType="Float"/>
                </composite>

            """
        let found = try ValidationSupport.diagnostics(body)
        #expect(
            found == [
                "\(file):7:63: error: member 'owner' of composite 'Ring' has type ObjectID, which a composite cannot keep; choose another type [composite-member]",
                "\(file):8:61: error: member 'scratch' of composite 'Ring' is transient, which a composite cannot keep; make the member stored or remove it [composite-member]",
                "\(file):9:104: error: member 'image' of composite 'Ring' allows external binary data storage, which a composite cannot keep; store it in the row or make it an attribute of the entity [composite-member]",
                "\(file):11:26: error: composite 'Ring' has two members named 'width'; rename one [composite-member]",
            ], "\(found)")
    }

    @Test func constraintsAndIndexesMayNameMembers() throws {
        let body = """
                <entity name="Trip">
                    <attribute name="place" optional="YES" attributeType="Composite" composite="Place"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint><constraint value="place.city"/></uniquenessConstraint>
                        <uniquenessConstraint><constraint value="place.town"/></uniquenessConstraint>
                    </uniquenessConstraints>
                    <fetchIndex name="byLatitude"><fetchIndexElement property="place.geo.lat" type="Binary" order="ascending"/></fetchIndex>
                    <fetchIndex name="byNothing"><fetchIndexElement property="place.geo.alt" type="Binary" order="ascending"/></fetchIndex>
                </entity>
                <composite name="Place">
                    <attribute name="city" optional="YES" attributeType="String"/>
                    <attribute name="geo" optional="YES" attributeType="Composite" composite="Geo"/>
                </composite>
                <composite name="Geo">
                    <attribute name="lat" optional="YES" attributeType="Double"/>
                </composite>

            """
        let found = try ValidationSupport.diagnostics(body)
        #expect(
            found == [
                "\(file):7:54: error: a uniqueness constraint of entity 'Trip' names 'place.town', which is not an attribute or relationship of 'Trip'; correct the name or remove it from the constraint [unknown-constraint-property]",
                "\(file):10:67: error: fetch index 'byNothing' of entity 'Trip' names 'place.geo.alt', which is not an attribute or relationship of 'Trip'; correct the name or remove it from the index [unknown-index-property]",
            ], "\(found)")
    }

    @Test func validateCommandReportsACompositeCycle() throws {
        let folder = try TemporaryFolder()
        let contents = CompositeModels.trip(
            geo: #"<attribute name="back" optional="YES" attributeType="Composite" composite="Place"/>"#)
        let bundle = try BundleWriting.write("Trips", in: folder.path, versions: [("Trips", contents)])
        let result = try RemodelProcess.run(["validate", bundle])
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                "Trips.xcdatamodel/contents:8:17: error: composite 'Place' contains itself (Place → Geo → Place); a composite value would never end [composite-cycle]"
            ) || result.output.contains("[composite-cycle]"), "\(result.output)\(result.error)")
        // A model with the error is never used: `create` refuses it before making a store.
        let create = try RemodelProcess.run(["create", folder.file("t.sqlite"), "--model", bundle])
        #expect(create.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.file("t.sqlite")))
    }
}
