import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

struct PolicyAndHookTests {
    private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The first object made from a source object keeps its `_pk` (3, 4); a further one gets a key
    /// above every source key (6); a skipped source object (5) leaves no object and no link.
    @Test func aPolicyMakesObjectsAndRelationshipsFollowTheFirstOne() async throws {
        let bundle = try ModelBundle(contentsOf: repository.appendingPathComponent("Models/Library.xcdatamodeld").path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "remodel-policy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seed = directory.appendingPathComponent("seed.json")
        try """
        {
          "Book": [
            {"_pk": 7, "title": "Notes", "author": 3},
            {"_pk": 8, "title": "Letters", "author": 4}
          ],
          "Person": [
            {"_pk": 3, "fullName": "Ada Lovelace", "age": 36},
            {"_pk": 4, "fullName": "Twins", "age": 1},
            {"_pk": 5, "fullName": "Skipped", "age": 2}
          ]
        }
        """.write(to: seed, atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("store.sqlite").path
        _ = try Store.create(at: path, bundle: bundle, version: "Library 2", seed: seed.path)

        var options = MigrationOptions(batchSize: 2)
        options.policies = [
            EntityPolicy(destination: "Person") { source in
                guard case .text(let name) = source["fullName"] else { return [] }
                switch name {
                case "Skipped": return []
                case "Twins":
                    return [
                        DestinationObject(["fullName": .text("Twin A")]),
                        DestinationObject(["fullName": .text("Twin B")]),
                    ]
                default: return [DestinationObject(["fullName": .text(name.uppercased()), "age": source["age"]])]
                }
            }
        ]
        options.hooks.afterStep = { database in
            try database.connection.run("INSERT INTO Tag (_pk, _entity, name) VALUES (1, 'Tag', 'added by a hook')")
        }
        _ = try await Migrator(bundle: bundle, options: options).migrate(storeAt: path)

        let output = directory.appendingPathComponent("out.json")
        try Store.open(at: path, bundle: bundle).exportJSON(to: output.path)
        let exported = try String(contentsOf: output, encoding: .utf8)
        #expect(
            exported == """
                {
                  "Book": [
                    {"_pk": 7, "isbn": null, "pageCount": null, "price": null, "publishedOn": null, "title": "Notes", "author": 3, "tags": []},
                    {"_pk": 8, "isbn": null, "pageCount": null, "price": null, "publishedOn": null, "title": "Letters", "author": 4, "tags": []}
                  ],
                  "Person": [
                    {"_pk": 3, "age": 36, "email": null, "fullName": "ADA LOVELACE", "books": [7]},
                    {"_pk": 4, "age": null, "email": null, "fullName": "Twin A", "books": [8]},
                    {"_pk": 6, "age": null, "email": null, "fullName": "Twin B", "books": []}
                  ],
                  "Tag": [
                    {"_pk": 1, "name": "added by a hook", "books": []}
                  ]
                }

                """)
    }
}
