import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// One call for the first launch on a new platform: import the Core Data store, then migrate it to the
/// current version; later launches open the store and leave the Core Data store alone.
struct CoreDataLaunchTests {
    @Test func firstLaunchImportsAndMigratesLaterLaunchesOpen() async throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let current = CoreDataStoreBuilder.zooEntities.replacingOccurrences(
            of: "<attribute name=\"title\" attributeType=\"String\"/>",
            with:
                "<attribute name=\"title\" attributeType=\"String\"/>\n<attribute name=\"area\" optional=\"YES\" attributeType=\"Double\"/>"
        )
        let bundle = try CoreDataStoreBuilder.zooBundle(
            in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities), ("Zoo 2", current)])
        let path = folder.file("zoo-remodel.sqlite")

        let (store, outcome, imported) = try await Store.launch(at: path, bundle: bundle, importingCoreDataFrom: source)
        #expect(imported?.versionName == "Zoo 1")
        #expect(imported?.objectCounts == ["Animal": 1, "Cat": 2, "Dog": 2, "Keeper": 2, "Zone": 2])
        guard case .migrated(let report) = outcome else {
            Issue.record("the first launch did not migrate: \(outcome)")
            return
        }
        #expect(report.sourceVersion == "Zoo 1" && report.targetVersion == "Zoo 2")
        #expect(store.version.name == "Zoo 2")
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(
            try connection.rows("SELECT _pk, title, area FROM Zone ORDER BY _pk") == [
                [.integer(1), .text("North"), .null], [.integer(2), .text("South"), .null],
            ])
        #expect(try connection.scalar("SELECT _keeper_order FROM Animal WHERE _pk = 4") == .integer(2))

        let (_, again, notImported) = try await Store.launch(at: path, bundle: bundle, importingCoreDataFrom: source)
        #expect(again == .opened)
        #expect(notImported == nil)
    }
}
