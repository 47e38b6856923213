import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The temporary store runs out of space (the internal `MigrationOptions.maximumPageCount`
/// hook sets `PRAGMA max_page_count` on every step store): a clear error, the original
/// byte for byte as it was, and no temporary file left.
struct DiskFullTests {
    @Test(arguments: [2, 5, 12])
    func temporaryStoreRunningOutOfSpaceLeavesTheOriginal(pages: Int) async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 300)
        let before = try fileBytes(store)
        var options = MigrationOptions(mappingsDirectory: Reliability.mappingsPath, batchSize: 100)
        options.maximumPageCount = pages
        let migrator = Migrator(bundle: Reliability.library, options: options)
        let error = await #expect(throws: RemodelError.self) { _ = try await migrator.migrate(storeAt: store) }
        let message = error?.description ?? ""
        #expect(message.contains("the disk is full") && message.contains("free some space"), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
        #expect(try fileBytes(store) == before)
        #expect(try folder.contents() == ["library.sqlite"])
    }

    /// The same migration without the cap succeeds, so the cap is what failed it.
    @Test func withoutTheCapTheMigrationSucceeds() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 300)
        let migrator = Migrator(
            bundle: Reliability.library,
            options: MigrationOptions(mappingsDirectory: Reliability.mappingsPath, batchSize: 100))
        let report = try await migrator.migrate(storeAt: store)
        #expect(report.targetVersion == "Library 3")
        #expect(try folder.contents() == ["library.sqlite"])
    }

    /// A disk without room for the copies a plan writes is refused before anything is written, naming the
    /// space needed and free; with room enough, the same migration runs.
    @Test func aStoreThatDoesNotFitIsRefusedUpFront() async throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 300)
        let before = try fileBytes(store)
        var options = MigrationOptions(mappingsDirectory: Reliability.mappingsPath)
        options.availableBytes = Int64(before.count / 2)
        let error = await #expect(throws: RemodelError.self) {
            _ = try await Migrator(bundle: Reliability.library, options: options).migrate(storeAt: store)
        }
        // One pass (the steps are composed): the store's size and a tenth.
        let needed = "\(before.count + before.count / 10) bytes"
        let free = "\(before.count / 2) bytes"
        #expect(
            error?.message
                == "the migration needs about \(needed) beside the store (a copy per pass), but its disk has \(free) free: free some space and migrate again; nothing was changed"
        )
        #expect((error?.cause as? POSIXError)?.code == .ENOSPC)
        #expect(try fileBytes(store) == before)
        #expect(try folder.contents() == ["library.sqlite"])
        options.availableBytes = Int64(before.count * 2)
        #expect(
            try await Migrator(bundle: Reliability.library, options: options).migrate(storeAt: store).targetVersion
                == "Library 3")
    }
}
