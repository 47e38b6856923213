import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// The keyed archives of the real stores of `shared/corpus-coredata` (BookMigration's `Book.fileURL`, archived by
/// an older system in the older key order): read, written back byte for byte, shown as JSON by `export` and imported
/// back into the same bytes. Skipped without the corpus.
struct TransformableCorpusTests {
    static let fixture = CoreDataCorpus.fixtures.first {
        $0.repository == "hwaxxer__BookMigration" && $0.store == "Model1.sqlite"
    }

    @Test(.enabled(if: CoreDataCorpus.exists)) func bookMigrationsArchivesComeBackByteForByte() throws {
        let folder = try TemporaryFolder()
        let fixture = try #require(Self.fixture)
        let copy = try fixture.copyStore(into: folder.path)
        let bundle = try ModelBundle(contentsOf: fixture.bundlePath)
        let original = try SQLiteConnection(path: copy, mode: .readOnly).rows(
            "SELECT Z_PK, ZFILEURL FROM ZBOOK ORDER BY Z_PK")
        #expect(original.count == 4)
        for row in original {
            guard case .blob(let bytes) = row[1] else {
                Issue.record("ZFILEURL is not a blob")
                continue
            }
            let archive = try #require(PropertyListArchive.exact(Array(bytes)))
            #expect(archive.layout == .legacy)
            guard case .string(let name) = archive.root else {
                Issue.record("\(archive.root)")
                continue
            }
            #expect(name.hasSuffix(".file"))
        }
        // Imported, exported as JSON, imported again: the same bytes as the Core Data store holds.
        _ = try Store.importCoreData(
            from: copy, bundle: bundle, into: folder.file("books.sqlite"), version: "Model1")
        let export = try Store.open(at: folder.file("books.sqlite"), bundle: bundle).exportJSONString()
        #expect(export.contains(#""fileURL": {"$keyedArchive": "The Trial.file", "$layout": "legacy"}"#), "\(export)")
        let again = try Store.create(
            at: folder.file("again.sqlite"), bundle: bundle, version: "Model1",
            seed: try folder.write(export, to: "export.json"))
        _ = again
        let imported = try SQLiteConnection(path: folder.file("again.sqlite"), mode: .readOnly).rows(
            "SELECT _pk, fileURL FROM Book ORDER BY _pk")
        #expect(imported == original)
    }
}
