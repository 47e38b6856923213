import Foundation
import Testing

@testable import Remodel

/// `remodel validate` checks each step of a bundle as a migration plans it: a step no mapping file maps, which
/// inference cannot carry, is a `needs-mapping` error at the change in the model.
struct StepValidationTests {
    private static let zoo = """
            <entity name="Pet" representedClassName="Pet">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
        """
    /// `legs` is new and required, with no default: no store with pets can be migrated without a value for it.
    private static let zoo2 = """
            <entity name="Pet" representedClassName="Pet">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="legs" attributeType="Integer 16"/>
            </entity>
        """

    @Test func aStepNoMappingFileMapsIsAnErrorUntilOneDoes() throws {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo", Self.zoo), ("Zoo 2", Self.zoo2)])
        let without = try RemodelProcess.run(["validate", bundle])
        #expect(without.status == 1)
        expectSameText(
            without.output,
            """
            \(bundle)/Zoo 2.xcdatamodel/contents:5:9: error: the step Zoo → Zoo 2 needs a mapping file, and none maps it (looked in \(bundle), Mappings): Pet.legs: Integer 16 attribute is new and required, with no default value; add to a mapping file: <attribute name="legs" value="…"/> [needs-mapping]
            Checked 1 model (2 versions): 1 error.

            """)
        let mappings = folder.file("Mappings")
        try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
        let mapping = """
            <mapping model="Zoo" sourceVersion="Zoo" destinationVersion="Zoo 2">
              <entity source="Pet" destination="Pet"><attribute name="legs" value="4"/></entity>
            </mapping>
            """
        try Data(mapping.utf8).write(to: URL(fileURLWithPath: mappings + "/zoo.xml"))
        let with = try RemodelProcess.run(["validate", bundle, mappings])
        #expect(with.status == 0, "\(with)")
        #expect(with.output == "Checked 1 model (2 versions) and 1 mapping file: no problems.\n")
    }
}
