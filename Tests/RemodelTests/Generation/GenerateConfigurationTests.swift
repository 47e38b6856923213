import Foundation
import Testing

@testable import Remodel

/// `remodel generate --configuration NAME`: the records of that configuration's entities only, their schema enum
/// named after the model and the configuration, checking for the configuration the store records.
struct GenerateConfigurationTests {
    @Test func generateWritesTheRecordsOfOneConfigurationOnly() throws {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "Shop", in: folder.path, versions: [("Shop 1", CoreDataConfigurationTests.shop1)])
        let cloud = folder.file("Cloud")
        let generated = try RemodelProcess.run(["generate", bundle, "--configuration", "Cloud", "-o", cloud])
        #expect(generated.status == 0, "\(generated.error)")
        #expect(
            generated.output
                == "Wrote 3 files for version \"Shop 1\" (configuration \"Cloud\") of \"Shop\" to \(cloud).\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cloud).sorted() == [
                "Item.swift", "ShopCloudSchema.swift", "Tag.swift",
            ])
        let schema = try String(contentsOfFile: cloud + "/ShopCloudSchema.swift", encoding: .utf8)
        #expect(schema.contains("enum ShopCloudSchema {"))
        #expect(schema.contains(#"static let configurationName: String? = "Cloud""#))
        #expect(schema.contains(#"("Item", ["#) && schema.contains(#"("Tag", ["#))
        #expect(!schema.contains("Setting"))

        let unknown = try RemodelProcess.run([
            "generate", bundle, "--configuration", "Remote", "-o", folder.file("Remote"),
        ])
        #expect(unknown.status == 2)
        #expect(
            unknown.error.contains(
                "version \"Shop 1\" has no configuration \"Remote\"; its configurations are \"Cloud\", \"Local\""),
            "\(unknown.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("Remote")))

        // A configuration the asked version lacks is named too, before anything is written.
        let two = try BundleWriting.write(
            "Two", in: folder.path,
            versions: [
                ("Two 1", CoreDataConfigurationTests.shop1.replacingOccurrences(of: "\"Local\"", with: "\"Device\"")),
                ("Two 2", CoreDataConfigurationTests.shop1),
            ])
        let older = try RemodelProcess.run([
            "generate", two, "--version", "Two 1", "--configuration", "Local", "-o", folder.file("Older"),
        ])
        #expect(older.status == 2)
        #expect(older.error.contains("version \"Two 1\" has no configuration \"Local\""), "\(older.error)")
    }
}
