import Foundation
import Testing

/// `remodel seed` through the built binary: the same bytes to a file and to standard output, data that
/// `remodel import` takes, and the rules it cannot satisfy named as warnings.
struct SeedCommandTests {
    private let model = ValidationSupport.packageRoot.appendingPathComponent("Models/Library.xcdatamodeld").path

    @Test func seedWritesDataThatImports() throws {
        let folder = try TemporaryFolder()
        let seed = folder.file("seed.json")
        let written = try RemodelProcess.run([
            "seed", model, "--version", "Library 2", "--objects", "12", "--seed-number", "3", "--output", seed,
        ])
        #expect(written.status == 0)
        #expect(
            written.output == "Wrote 24 objects of 2 entities at version \"Library 2\" to \(seed) (seed number 3).\n")
        #expect(written.error == "")
        let printed = try RemodelProcess.run([
            "seed", model, "--version", "Library 2", "--objects", "12", "--seed-number", "3",
        ])
        #expect(printed.status == 0)
        #expect(printed.output == (try String(contentsOfFile: seed, encoding: .utf8)))

        let store = folder.file("library.sqlite")
        // `import` fills a store at the current version only: a store at Library 2 takes the seed as it is made.
        let imported = try RemodelProcess.run([
            "create", store, "--model", model, "--version", "Library 2", "--seed", seed,
        ])
        #expect(imported.status == 0, "\(imported.error)")
        let exported = try RemodelProcess.run(["export", store, "--model", model])
        #expect(exported.output == printed.output)
    }

    @Test func rulesThatCannotBeMetAreWarnings() throws {
        let folder = try TemporaryFolder()
        let contents = try folder.write(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Shape" isAbstract="YES"/>
                <entity name="Drawing">
                    <relationship name="shape" maxCount="1" destinationEntity="Shape"/>
                </entity>
            </model>
            """, to: "contents")
        let result = try RemodelProcess.run(["seed", contents, "--version", "contents", "--objects", "3"])
        #expect(result.status == 0)
        #expect(result.output == "{\n  \"Drawing\": []\n}\n")
        #expect(
            result.error
                == "warning: Drawing.shape: requires at least 1 Shape object, and Shape has no concrete entity among its kinds (it is abstract with no concrete sub-entity); so no Drawing objects are generated\n"
        )
    }

    @Test func anUnknownVersionFails() throws {
        let result = try RemodelProcess.run(["seed", model, "--version", "Library 9"])
        #expect(result.status == 2)
        #expect(
            result.error.contains(
                "has no version \"Library 9\"; its versions are \"Library\", \"Library 2\", \"Library 3\""))
    }
}
