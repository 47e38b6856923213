import Foundation
import Testing

@testable import Remodel

/// Stores of one configuration whose metadata or tables lie (`_RemodelMetadata`'s `configuration` naming one the
/// model lacks, empty, gone, or a configuration's table dropped): `status` and `migrate` refuse with exit status 1
/// in one sentence naming the store, and the store stays byte for byte as it was.
struct HostileConfigurationStoreTests {
    static let cases: [(name: String, sql: String, says: String)] = [
        (
            "a configuration the model lacks",
            "UPDATE _RemodelMetadata SET value = 'Nowhere' WHERE key = 'configuration'",
            #"the store holds the entities of configuration "Nowhere" only, but version "Shop 2" has no configuration "Nowhere"; its configurations are "Cloud", "Local""#
        ),
        (
            "an empty configuration", "UPDATE _RemodelMetadata SET value = '' WHERE key = 'configuration'",
            #"has no configuration """#
        ),
        (
            "the configuration row gone", "DELETE FROM _RemodelMetadata WHERE key = 'configuration'",
            "its entity hashes differ"
        ),
        (
            "the configuration's value a blob", "UPDATE _RemodelMetadata SET value = x'00' WHERE key = 'configuration'",
            "its entity hashes differ"
        ),
        (
            "another configuration named", "UPDATE _RemodelMetadata SET value = 'Local' WHERE key = 'configuration'",
            "its entity hashes differ"
        ),
        ("a table of the configuration dropped", "DROP TABLE Tag", #"table "Tag" is missing"#),
    ]

    @Test(arguments: cases)
    func refusedInOneSentenceAndTheStoreIsUnchanged(name: String, sql: String, says: String) throws {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "Shop", in: folder.path,
            versions: [("Shop 1", CoreDataConfigurationTests.shop1), ("Shop 2", CoreDataConfigurationTests.shop2)])
        let store = folder.file("cloud.sqlite")
        let created = try RemodelProcess.run([
            "create", store, "--model", bundle, "--version", "Shop 1", "--configuration", "Cloud",
        ])
        #expect(created.status == 0, "\(created.error)")
        let connection = try SQLiteConnection(path: store, mode: .readWrite)
        try connection.execute("INSERT INTO Tag (_pk, _entity, name) VALUES (1, 'Tag', 'red')")
        try connection.execute("INSERT INTO Item (_pk, _entity, title, tag) VALUES (1, 'Item', 'lamp', 1)")
        try connection.execute(sql)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        for command in ["status", "migrate"] {
            let run = try RemodelProcess.run([command, store, "--model", bundle])
            #expect(run.status == 1, "\(name), \(command): \(run)")
            #expect(run.error.contains(store), "\(name), \(command): \(run.error)")
            #expect(run.error.contains(says), "\(name), \(command): \(run.error)")
            #expect(run.error.split(separator: "\n").count == 1, "\(name), \(command): \(run.error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "\(name), \(command)")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "Shop.xcdatamodeld", "cloud.sqlite",
            ])
    }
}
