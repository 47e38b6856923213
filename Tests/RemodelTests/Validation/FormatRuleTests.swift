import Foundation
import Testing

/// `remodel validate` names what a model states that Remodel does not implement (docs/MODELS.md, "Model
/// features"), each at its line and column, through the command line; what Remodel implements, and Xcode's own
/// bookkeeping, it does not name.
struct FormatRuleTests {
    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="" futureFlag="YES">
            <entity name="Place" representedClassName="Place" syncable="YES" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String" spotlightIndexingEnabled="YES" preserveAfterDeletion="YES" usesScalarValueType="NO"/>
                <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" allowsCloudEncryption="YES"/>
                <attribute name="lat" optional="YES" attributeType="Double" usesScalarValueType="YES" storedInTruthFile="YES"/>
                <attribute name="lon" optional="YES" attributeType="Double" usesScalarValueType="YES" sparkle="on"/>
                <relationship name="visits" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Visit" inverseName="place" inverseEntity="Visit" spotlightIndexingEnabled="YES"/>
                <fetchedProperty name="nearby" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Place" predicateString="lat == $FETCH_SOURCE.lat"/>
                </fetchedProperty>
                <fetchIndex name="byNameLength">
                    <fetchIndexElement expression="length:(name)" expressionType="Integer 64" type="Binary" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byLocation">
                    <fetchIndexElement property="lat" type="RTree" order="ascending"/>
                    <fetchIndexElement property="lon" type="RTree" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byName">
                    <fetchIndexElement property="name" type="Binary" order="descending"/>
                </fetchIndex>
                <hologram/>
            </entity>
            <entity name="Visit" representedClassName="Visit" syncable="YES">
                <attribute name="day" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <relationship name="place" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Place" inverseName="visits" inverseEntity="Place"/>
            </entity>
            <fetchRequest name="Everywhere" entity="Place" predicateString="TRUEPREDICATE"/>
            <elements>
                <element name="Place" positionX="-63" positionY="-18" width="128" height="89"/>
            </elements>
        </model>
        """

    @Test func everyFeatureRemodelDoesNotImplementIsNamedAtItsPosition() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(Self.contents, to: "contents")
        let result = try RemodelProcess.run(["validate", path])
        #expect(result.status == 0)
        let expected = [
            "\(path):2:232: warning: the model has the XML attribute 'futureFlag', which Remodel does not know: it is kept as read and has no effect [unknown-model-attribute]",
            "\(path):4:96: warning: attribute 'Place.name' is indexed by Spotlight (spotlightIndexingEnabled) on Apple's platforms; Remodel has no Spotlight index and ignores it [ignored-platform-option]",
            "\(path):4:124: warning: attribute 'Place.name' is kept in Core Data's persistent history when its object is deleted (preserveAfterDeletion); Remodel keeps no persistent history and ignores it [ignored-platform-option]",
            "\(path):5:132: warning: attribute 'Place.photo' is encrypted in CloudKit (allowsCloudEncryption); Remodel does not sync with CloudKit and ignores it [ignored-platform-option]",
            "\(path):6:114: warning: attribute 'Place.lat' is also written to Core Data's external record files for Spotlight (storedInTruthFile), which Remodel does not write: the value is kept in the store like any other [ignored-platform-option]",
            "\(path):7:104: warning: attribute 'Place.lon' has the XML attribute 'sparkle', which Remodel does not know: it is kept as read and has no effect [unknown-model-attribute]",
            "\(path):8:182: warning: relationship 'Place.visits' is indexed by Spotlight (spotlightIndexingEnabled) on Apple's platforms; Remodel has no Spotlight index and ignores it [ignored-platform-option]",
            "\(path):9:9: warning: fetched property 'Place.nearby' is a fetch Core Data runs when the property is read; Remodel stores nothing for it and the generated records have no property for it: fetch its objects with a query [ignored-fetched-property]",
            "\(path):13:44: warning: fetch index 'byNameLength' of entity 'Place' indexes an expression (length:(name)), which Remodel does not index: the index is not created, and a fetch by it reads the table [ignored-fetch-index-element]",
            "\(path):16:53: warning: fetch index 'byLocation' of entity 'Place' is an R-tree (type=\"RTree\"), which SQLite keeps only as a virtual table; Remodel creates an ordinary index on its properties instead [ignored-fetch-index-element]",
            "\(path):22:9: warning: entity Place holds a <hologram> element, which Remodel does not know: it is kept as read and has no effect [unknown-model-element]",
            "\(path):28:5: warning: fetch request template 'Everywhere' (entity Place) is a named fetch Core Data keeps in the model; Remodel ignores it: write the query in the app's code [ignored-fetch-request]",
            "Checked 1 model (1 version): 12 warnings.",
        ]
        #expect(result.output.split(separator: "\n").map(String.init) == expected)
        #expect(try RemodelProcess.run(["validate", path, "--strict"]).status == 1)
    }
}
