import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `remodel convert-mapping`: an Xcode mapping model written as a Remodel mapping file that reads
/// back to the same mapping, with `TO DO` comments where a policy class or an expression without a
/// translation stands.
struct ConvertMappingTests {
    typealias E = XcodeExpression

    /// The mapping as lines that leave out where things were written (provenance, positions).
    static func normalized(_ mapping: MappingModel) -> [String] {
        mapping.entities.map { entity in
            var line = "\(entity.kind.rawValue) \(entity.source ?? "-") → \(entity.destination ?? "-")"
            if let filter = entity.filter { line += " where \(filter.text)" }
            line +=
                ": "
                + entity.attributes.map { "\($0.destination) = \($0.value?.text ?? "nil")" }.joined(separator: ", ")
            line +=
                "; "
                + entity.relationships.map { "\($0.destination) ← \($0.source ?? "nothing")" }.joined(separator: ", ")
            return line
        }
    }

    /// Converts, writes the text, reads it back with the Remodel reader and merges it over inference.
    private static func readBack(_ path: String, bundle: ModelBundle, folder: TemporaryFolder) throws -> (
        text: String, xcode: MappingModel, remodel: MappingModel
    ) {
        let (converted, _) = XcodeMappingWriter.convert(path: path, bundle: bundle)
        let text = try #require(converted)
        let file = try folder.write(text, to: "converted-\(UUID().uuidString).xml")
        let (read, readDiagnostics) = MappingFileReader.read(path: file)
        #expect(readDiagnostics.isEmpty, "\(readDiagnostics)")
        let (remodel, _) = MappingResolver.resolve(file: try #require(read), bundle: bundle)
        let xcode = try #require(XcodeMappingLoader.load(path: path, bundle: bundle)?.mapping)
        return (text, xcode, try #require(remodel))
    }

    @Test func aMappingModelIsWrittenAsARemodelMappingFile() throws {
        let project = try ShopProject()
        var fixture = try XcodeMappingValidationTests.complete(project)
        fixture.entities[0].policy = "ShopKit.ItemPolicy"
        fixture.entities[1].attributes = [
            .init("label", E(.function(operand: E(.variable("source")), selector: "hash", arguments: [])))
        ]
        let path = try project.write(fixture)
        let (text, xcode, remodel) = try Self.readBack(path, bundle: try project.bundle(), folder: project.folder)
        expectSameText(
            text.replacingOccurrences(of: project.folder.path, with: "…"),
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- Converted by `remodel convert-mapping` from …/Mappings/ShopToShop2.xcmappingmodel/xcmapping.xml:
                 Shop (found by name) to Shop 2 (found by name).
                 Only what the Xcode mapping model says beyond inference is written; everything else is inferred. -->
            <mapping model="Shop" sourceVersion="Shop" destinationVersion="Shop 2">
                <!-- Xcode entity mapping ItemToItem -->
                <!-- TO DO: Core Data runs the migration policy class ShopKit.ItemPolicy for this entity mapping: write what it does as values here, or give Swift code for it (an EntityPolicy for destination "Item" in MigrationOptions.policies) -->
                <!-- Xcode filter: count > 0 AND code != "skip&drop" -->
                <entity source="Item" destination="Item" filter="((($source.count &gt; 0) ?? false) &amp;&amp; !((($source.code == 'skip&amp;drop') ?? false)))">
                    <!-- Xcode: FUNCTION($source.name, "uppercaseString") -->
                    <attribute name="title" value="uppercase($source.name)"/>
                    <!-- Xcode: $source.price -->
                    <attribute name="price" value="decimal($source.price)"/>
                    <!-- Xcode: $source.active -->
                    <attribute name="active" value="int($source.active)"/>
                    <!-- Xcode: FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "TagToTag", $source.tags) -->
                    <relationship name="labels" source="tags"/>
                </entity>
                <!-- Xcode entity mapping TagToTag -->
                <!-- TO DO: label: the Xcode expression FUNCTION($source, "hash") has no Remodel translation (the method hash has no Remodel translation); write its value here -->
                <entity source="Tag" destination="Tag"/>
                <!-- Xcode entity mapping Note -->
                <entity source="Note"/>
            </mapping>

            """)
        #expect(Self.normalized(remodel) == Self.normalized(xcode))
        // What the file cannot say: the policy, and the expression left to a person.
        #expect(xcode.mapping(toDestination: "Item")?.policy?.className == "ShopKit.ItemPolicy")
        #expect(remodel.mapping(toDestination: "Item")?.policy == nil)
        #expect(xcode.mapping(toDestination: "Tag")?.problems.map(\.property) == ["label"])
        #expect(remodel.mapping(toDestination: "Tag")?.problems == [])
    }

    @Test(
        .tags(.corpus), .skippable(.corpus),
        .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func everyCorpusMappingModelReadsBackToTheSameMapping() throws {
        let folder = try TemporaryFolder()
        let bundles = [
            "Advanced.EvolutionDemo.V1.FromV2": "Advanced.EvolutionDemo.V1",
            "Advanced.EvolutionDemo.V2.FromV1": "Advanced.EvolutionDemo.V1",
            "OrganismV2ToV3": "MigrationDemo", "OrganismV3ToV2": "MigrationDemo", "migration2.54": "zmessaging",
            "MappingFrom6To7Model": "DashSync", "V2toV3": "SampleModel",
        ]
        for (repository, name) in XcodeCorpus.all {
            let bundle = try XcodeCorpus.bundle(repository, try #require(bundles[name]))
            let (_, xcode, remodel) = try Self.readBack(
                XcodeCorpus.mapping(repository, name), bundle: bundle, folder: folder)
            #expect(Self.normalized(remodel) == Self.normalized(xcode), "\(name)")
            #expect(remodel.entities.count == xcode.entities.count, "\(name)")
        }
    }

    @Test func theCommandWritesTheFileAndSaysWhatNeedsAPerson() throws {
        let project = try ShopProject()
        var fixture = try XcodeMappingValidationTests.complete(project)
        fixture.entities[0].policy = "ShopKit.ItemPolicy"
        let path = try project.write(fixture)
        let output = project.folder.file("converted.xml")
        let mappingModel = project.mappings + "/ShopToShop2.xcmappingmodel"
        let run = try RemodelProcess.run([
            "convert-mapping", mappingModel, "--model", project.bundlePath, "-o", output,
        ])
        #expect(run.status == 0)
        #expect(run.output == "")
        let line = try #require(
            XcodeMappingFixture.line(
                of: "migrationpolicyclassname", in: try String(contentsOfFile: path, encoding: .utf8)))
        #expect(
            run.error
                == "\(path):\(line):66: warning: the entity mapping ItemToItem needs a Swift policy named 'ShopKit.ItemPolicy' (Core Data runs that class here); register an EntityPolicy under that name (MigrationOptions.register(_:forClass:)) before migrating, or write this step as a Remodel mapping file [xcode-mapping-policy]\n"
        )
        #expect(
            try String(contentsOfFile: output, encoding: .utf8)
                == XcodeMappingWriter.convert(path: mappingModel, bundle: try project.bundle()).text)

        // Standard output without --output; exit status 1 when the mapping model has errors, 2 when nothing can be written.
        fixture.entities[0].policy = nil
        fixture.entities[0].attributes.append(.init("count", E(.constant(.date(0)))))
        try project.write(fixture)
        let withError = try RemodelProcess.run(["convert-mapping", mappingModel, "--model", project.bundlePath])
        #expect(withError.status == 1)
        #expect(
            withError.output.contains(
                "<!-- TO DO: count: the Xcode expression CAST(0.0, \"NSDate\") has no Remodel translation"))
        #expect(
            withError.error.contains(
                "error: ItemToItem.count: the Xcode expression CAST(0.0, \"NSDate\") has no Remodel translation: a date constant"
            ))
        fixture.destinationPath = "Shop.xcdatamodeld/Shop 9.xcdatamodel"
        fixture.destinationSnapshot = nil
        try project.write(fixture)
        let unmatched = try RemodelProcess.run(["convert-mapping", mappingModel, "--model", project.bundlePath])
        #expect(unmatched.status == 2)
        #expect(unmatched.output == "")
        #expect(
            unmatched.error.contains(
                "error: no version matches: its destination model path 'Shop.xcdatamodeld/Shop 9.xcdatamodel' names no version of 'Shop', and its destination model snapshot cannot be read: the file has no model snapshot [xcode-mapping-unknown-version]"
            ))
    }
}
