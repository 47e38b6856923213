import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Data-aware screening applies to every step, on the data as that step gets it (the issue "No data
/// lost", item 9): Items 2 fills the nil labels, Items 3 makes the label required with no default.
struct LaterStepScreeningTests {
    private func items(in folder: TemporaryFolder, filling: Bool) throws -> (ModelBundle, String) {
        let optional = #"<entity name="Item"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
        let required = #"<entity name="Item"><attribute name="label" attributeType="String"/></entity>"#
        let path = try BundleWriting.write(
            "Items", in: folder.path, versions: [("Items", optional), ("Items 2", optional), ("Items 3", required)])
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        let value = filling ? "$source.label ?? 'none'" : "$source.label"
        _ = try folder.write(
            #"<mapping model="Items" sourceVersion="Items" destinationVersion="Items 2"><entity source="Item" destination="Item"><attribute name="label" value="\#(value)"/></entity></mapping>"#,
            to: "Mappings/fill.xml")
        let store = folder.file("items.sqlite")
        let seed = try folder.write(
            #"{"Item": [{"_pk": 1, "label": "a"}, {"_pk": 2}, {"_pk": 3, "label": "c"}, {"_pk": 4}]}"#, to: "seed.json")
        let bundle = try ModelBundle(contentsOf: path)
        _ = try Store.create(at: store, bundle: bundle, version: "Items", seed: seed)
        return (bundle, store)
    }

    @Test(arguments: [true, false])
    func nilsFilledByAnEarlierStepDoNotStopALaterOne(composed: Bool) async throws {
        let folder = try TemporaryFolder()
        let (bundle, store) = try items(in: folder, filling: true)
        var options = MigrationOptions(mappingsDirectory: folder.file("Mappings"))
        options.composesSteps = composed
        let plan = try Migrator(bundle: bundle, options: options).plan(storeAt: store)
        #expect(plan.steps.count == 2)
        let report = try await Migrator(bundle: bundle, options: options).migrate(storeAt: store)
        #expect(report.steps == 2)
        let rows = try SQLiteConnection(path: store, mode: .readOnly).rows(
            #"SELECT "label" FROM "Item" ORDER BY "_pk""#)
        #expect(rows == [[.text("a")], [.text("none")], [.text("c")], [.text("none")]])
    }

    @Test(arguments: [true, false])
    func nilsLeftForALaterStepStopItNamingTheObjects(composed: Bool) async throws {
        let folder = try TemporaryFolder()
        let (bundle, store) = try items(in: folder, filling: false)
        let before = try fileBytes(store)
        var options = MigrationOptions(mappingsDirectory: folder.file("Mappings"))
        options.composesSteps = composed
        do {
            _ = try await Migrator(bundle: bundle, options: options).migrate(storeAt: store)
            Issue.record("the nil labels reached a version that requires them")
        } catch {
            #expect(error.code == .migrationNotPlannable)
            #expect(error.message.contains("Items 2 → Items 3"), "\(error.message)")
            #expect(error.message.contains("_pk 2, 4"), "\(error.message)")
        }
        #expect(try fileBytes(store) == before)
        #expect(try folder.contents() == ["Items.xcdatamodeld", "Mappings", "items.sqlite", "seed.json"])
    }
}
