import Foundation
import Testing

/// `remodel create`, `import`, `export` and `status` through the built binary.
struct StoreCommandTests {
    private let model = ValidationSupport.packageRoot.appendingPathComponent("Models/Library.xcdatamodeld").path

    @Test func createImportExportAndStatusWorkTogether() throws {
        // `import` fills a store at the current version only: one at Library is refused, untouched.
        let older = try TemporaryFolder()
        let olderStore = older.file("library.sqlite")
        #expect(try RemodelProcess.run(["create", olderStore, "--model", model, "--version", "Library"]).status == 0)
        let before = try fileBytes(olderStore)
        let refused = try RemodelProcess.run([
            "import", olderStore, try older.write(#"{"Person": []}"#, to: "people.json"), "--model", model,
        ])
        #expect(refused.status == 1)
        #expect(
            refused.error
                == "error: \(olderStore): the store is at version \"Library\", not the current version \"Library 3\", so nothing was imported; migrate it first (`remodel migrate`), then import\n"
        )
        #expect(try fileBytes(olderStore) == before)

        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        let people = folder.file("people.json")
        try #"{"Person": [{"_pk": 1, "fullName": "Ada Lovelace", "age": 36, "email": null, "books": []}]}"#
            .write(toFile: people, atomically: true, encoding: .utf8)

        let created = try RemodelProcess.run(["create", store, "--model", model])
        #expect(created.status == 0)
        #expect(created.output == "Created \(store) at version \"Library 3\" of model \"Library\", empty.\n")

        let imported = try RemodelProcess.run(["import", store, people, "--model", model])
        #expect(imported.status == 0)
        #expect(imported.output == "Imported 1 object from \(people) into \(store).\n", "the objects that went in")

        let exported = try RemodelProcess.run(["export", store, "--model", model])
        #expect(exported.status == 0)
        #expect(
            exported.output == """
                {
                  "Book": [],
                  "Person": [
                    {"_pk": 1, "age": 36, "email": null, "fullName": "Ada Lovelace", "books": []}
                  ],
                  "Tag": []
                }

                """)

        let status = try RemodelProcess.run([
            "status", store, "--model", model, "--mappings", MigrationFixtures.libraryMappings,
        ])
        #expect(status.status == 0)
        #expect(
            status.output.hasPrefix(
                "The store at \(store) is at the current version \"Library 3\" of model \"Library\": nothing to do."),
            "\(status)")
        let olderStatus = try RemodelProcess.run([
            "status", olderStore, "--model", model, "--mappings", MigrationFixtures.libraryMappings,
        ])
        #expect(
            olderStatus.output.hasPrefix(
                "The store at \(olderStore) is at version \"Library\" (recognised by its version name and hashes), older than the current \"Library 3\""
            ))
        #expect(olderStatus.output.contains("Step 1: Library → Library 2 (mapping file"))
        #expect(olderStatus.output.contains("Step 2: Library 2 → Library 3 (inferred)"))
    }

    /// A load says how many objects went in.
    @Test func createWithASeedCountsTheObjects() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        let seed = MigrationFixtures.path("Library", "seed.json")
        let created = try RemodelProcess.run([
            "create", store, "--model", model, "--version", "Library", "--seed", seed,
        ])
        #expect(created.status == 0)
        #expect(
            created.output
                == "Created \(store) at version \"Library\" of model \"Library\" with 6 objects from \(seed).\n")
    }

    @Test func aBadSeedValueFailsNamingTheObjectAndLeavesNoStore() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        let seed = folder.file("seed.json")
        try #"{"Person": [{"_pk": 7, "firstName": "Ada", "lastName": "Lovelace", "yearsSinceBirth": "old"}]}"#
            .write(toFile: seed, atomically: true, encoding: .utf8)
        let result = try RemodelProcess.run(["create", store, "--model", model, "--version", "Library", "--seed", seed])
        #expect(result.status == 1)
        #expect(result.error.contains("Person _pk 7"))
        #expect(result.error.contains("yearsSinceBirth"))
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
