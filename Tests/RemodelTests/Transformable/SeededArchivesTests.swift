import Foundation
import Testing

@testable import Remodel
@testable import RemodelTesting

/// `remodel seed` writes a Transformable attribute whose `customClassName` names a property-list type as a keyed
/// archive of that type, which the generated records read (random bytes made every seeded store of such a model
/// fail the records' round trip: `expected an archive of [String], found a keyed archive that does not read`). An
/// attribute without such a type keeps opaque bytes.
struct SeededArchivesTests {
    static let model = ValidationSupport.packageRoot.appendingPathComponent(
        "Tests/RemodelTests/Fixtures/Generation/Archives.xcdatamodel"
    ).path

    @Test func everySeededArchiveReadsAsItsAttributesType() throws {
        let folder = try TemporaryFolder()
        let bundle = try ModelBundle(contentsOf: Self.model)
        let json = folder.file("seed.json")
        _ = try SeedGenerator(bundle: bundle, version: bundle.currentVersionName).write(
            objects: 12, seedNumber: 7, to: json)
        let store = folder.file("archives.sqlite")
        _ = try Store.create(at: store, bundle: bundle, version: bundle.currentVersionName, seed: json)
        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        var read = 0
        for row in try connection.rows("SELECT tags, counts, link, readers, history, anything FROM Note") {
            func archive(_ index: Int) -> Data? {
                if case .blob(let data) = row[index] { return data }
                return nil
            }
            if let data = archive(0) { _ = try KeyedArchiveCoding.decode([String].self, from: data) }
            if let data = archive(1) { _ = try KeyedArchiveCoding.decode([String: Int].self, from: data) }
            if let data = archive(2) { _ = try KeyedArchiveCoding.decode(URL.self, from: data) }
            if let data = archive(3) {
                let readers = try KeyedArchiveCoding.decode(Set<UUID>.self, from: data)
                // A set's archive is the one the records write for it: an unchanged value writes the same bytes.
                #expect(KeyedArchiveCoding.encode(readers) == data)
            }
            let history = try #require(archive(4), "history is required")
            _ = try KeyedArchiveCoding.decode([[String: Date]].self, from: history)
            if let data = archive(5) { #expect((try? KeyedArchiveCoding.decode([String].self, from: data)) == nil) }
            read += 1
        }
        #expect(read == 12)
    }
}
