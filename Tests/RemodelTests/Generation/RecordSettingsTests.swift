import Foundation
import Testing

@testable import Remodel
@testable import RemodelGeneration

/// `remodel-records.json`, the settings the records plugins pass to `remodel-generate --settings`: a model's
/// version, configuration and access, by its path from the file's folder; every mistake an error at its line and
/// column, and the tool's own options winning over the file.
struct RecordSettingsTests {
    static let shop = ValidationSupport.packageRoot.appendingPathComponent(
        "Tests/RemodelTests/Fixtures/Generation/Shop.xcdatamodel"
    ).path

    /// A target's folder holding `Shop.xcdatamodel` and `Models/Library.xcdatamodeld`, with `settings` as its
    /// `remodel-records.json`.
    private static func target(_ settings: String) throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: shop, toPath: folder.file("Shop.xcdatamodel"))
        try FileManager.default.createDirectory(atPath: folder.file("Models"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: ValidationSupport.packageRoot.appendingPathComponent("Models/Library.xcdatamodeld").path,
            toPath: folder.file("Models/Library.xcdatamodeld"))
        return (folder, try folder.write(settings, to: RecordSettings.fileName))
    }

    @Test func eachModelHasItsEntryAndTheOthersTheDefaults() throws {
        let (folder, file) = try Self.target(
            """
            {
                "Shop.xcdatamodel": {"configuration": "Cloud", "access": "public"},
                "Models/Library.xcdatamodeld": {"version": "Library 2"}
            }
            """)
        let settings = try RecordSettings(contentsOf: file)
        #expect(
            settings.model(at: folder.file("Shop.xcdatamodel"))
                == RecordSettings.Model(configuration: "Cloud", access: .public))
        // The plugin names a model by an absolute path, which may be spelled another way.
        #expect(
            settings.model(at: folder.file("Models/../Models/./Library.xcdatamodeld"))
                == RecordSettings.Model(version: "Library 2"))
        #expect(settings.model(at: folder.file("Other.xcdatamodeld")) == RecordSettings.Model())
    }

    @Test(arguments: [
        (
            "{\n  \"Shop.xcdatamodel\": {\"configuraton\": \"Cloud\"}\n}",
            ":2:24: unknown setting \"configuraton\": a model's settings are \"version\", \"configuration\" and \"access\""
        ),
        (
            "{\n  \"Shop.xcdatamodel\": {},\n  \"Shop.xcdatamodeld\": {}\n}",
            ":3:3: \"Shop.xcdatamodeld\" is not a model in "
        ),
        ("{\"Library.xcdatamodeld\": {}}", ":1:2: \"Library.xcdatamodeld\" is not a model in "),
        (
            "{\"Shop.xcdatamodel\": {\"access\": \"open\"}}",
            ":1:33: \"access\" is \"internal\" or \"public\", not \"open\""
        ),
        ("{\"Shop.xcdatamodel\": {\"version\": 2}}", ":1:34: \"version\" takes a string"),
        ("{\"Shop.xcdatamodel\": {}, \"./Shop.xcdatamodel\": {}}", ":1:26: \"./Shop.xcdatamodel\" is given twice"),
        ("{\"Shop.xcdatamodel\": \"Cloud\"}", ":1:22: expected '{', found '\"'"),
        ("{\"Shop.xcdatamodel\": {}} {}", ":1:26: expected the end of the file, found '{'"),
    ])
    func aMistakeIsAnErrorAtItsLineAndColumn(text: String, expected: String) throws {
        let (folder, file) = try Self.target(text)
        let error = try #require(throws: RemodelError.self) { try RecordSettings(contentsOf: file) }
        #expect(error.description.hasPrefix(file + expected), "\(error.description)")
        withExtendedLifetime(folder) {}
    }

    /// The tool the plugins run: the file's entry for the model it is given, its own options first.
    @Test func remodelGenerateTakesTheModelsEntryAndItsOwnOptionsWin() throws {
        let tool = try #require(
            RemodelProcess.executable?.deletingLastPathComponent().appendingPathComponent("remodel-generate").path)
        let (folder, file) = try Self.target(#"{"Shop.xcdatamodel": {"configuration": "Cloud", "access": "public"}}"#)
        func generate(_ extra: [String]) throws -> (status: Int32, error: String, schema: String?) {
            let output = folder.file("Generated-\(UUID().uuidString)")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = [folder.file("Shop.xcdatamodel"), "--output", output, "--file", "Shop.swift"] + extra
            let error = Pipe()
            process.standardError = error
            try process.run()
            let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (
                process.terminationStatus, message, try? String(contentsOfFile: output + "/Shop.swift", encoding: .utf8)
            )
        }
        let fromFile = try generate(["--settings", file])
        #expect(fromFile.status == 0, "\(fromFile.error)")
        #expect(fromFile.schema?.contains("public enum ShopCloudSchema {") == true)
        #expect(fromFile.schema?.contains("Setting") == false)

        let overridden = try generate(["--settings", file, "--access", "internal", "--configuration", "Local"])
        #expect(overridden.status == 0, "\(overridden.error)")
        #expect(overridden.schema?.contains("\nenum ShopLocalSchema {") == true)

        let withoutFile = try generate([])
        #expect(withoutFile.schema?.contains("\nenum ShopSchema {") == true)

        let broken = try folder.write(#"{"Shop.xcdatamodel": {"acces": "public"}}"#, to: "broken.json")
        let refused = try generate(["--settings", broken])
        #expect(refused.status == 1)
        #expect(refused.error.contains("\(broken):1:23: unknown setting \"acces\""), "\(refused.error)")
        #expect(refused.schema == nil)
    }
}
