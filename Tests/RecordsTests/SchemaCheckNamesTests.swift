import ArchivesRecords
import Foundation
import GRDB
import Remodel
import Testing

/// The records' schema check compares column names as SQLite compares identifiers: ASCII letters without regard to
/// case, every other byte as it is. The `Archives` fixture's `Note` has an attribute `rÉsumÉ`, whose capitals
/// SQLite's `lower` leaves as they are.
struct SchemaCheckNamesTests {
    @Test func aColumnNamedBeyondASCIIIsFoundAndOneRenamedInItsNonASCIICaseIsDrift() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = try RecordsTestSupport.model("Tests/RemodelTests/Fixtures/Generation/Archives.xcdatamodel")
        let path = folder.appendingPathComponent("names.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.read(ArchivesSchema.check)
        // `résumÉ` is another column to SQLite (and to Remodel's own drift check), though Swift folds both to `résumé`.
        try queue.write { db in try db.execute(sql: "ALTER TABLE Note RENAME COLUMN \"rÉsumÉ\" TO \"résumÉ\"") }
        let error = try #require(throws: ArchivesSchema.RecordError.self) { try queue.read(ArchivesSchema.check) }
        #expect(error.kind == .schemaDrift)
        #expect(error.message.contains("table \"Note\" lacks \"rÉsumÉ\""), "\(error.message)")
    }
}
