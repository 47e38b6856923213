import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// The source store is read as SQLite would read it, without a byte written in it or beside it, and a
/// store another process has open is refused.
struct CoreDataReadOnlyTests {
    /// A zoo store in WAL mode whose rows live only in its `-wal` (copied with it while the writer was
    /// open, without its `-shm`, as a backup tool takes it).
    static func walOnlyStore(in folder: TemporaryFolder) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("writer"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("backup"), withIntermediateDirectories: true)
        let original = folder.file("writer/Zoo.sqlite")
        let writer = try SQLiteConnection(path: original, mode: .create)
        #expect(try writer.scalar("PRAGMA journal_mode = WAL") == .text("wal"))
        try writer.execute("PRAGMA wal_autocheckpoint = 0; CREATE TABLE placeholder (x); DROP TABLE placeholder")
        try CoreDataStoreBuilder.zoo(at: original)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(
                atPath: original + suffix, toPath: folder.file("backup/Zoo.sqlite" + suffix))
        }
        try FileManager.default.copyItem(
            atPath: folder.file("writer/.Zoo_SUPPORT"), toPath: folder.file("backup/.Zoo_SUPPORT"))
        withExtendedLifetime(writer) {}
        return folder.file("backup/Zoo.sqlite")
    }

    @Test func readsRowsThatLiveOnlyInTheWALWithoutWritingBesideTheStore() throws {
        let folder = try TemporaryFolder()
        let source = try Self.walOnlyStore(in: folder)
        // The main file alone has no row: they are all in the -wal.
        let mainOnly = try SQLiteConnection(immutable: source, reportedAs: source)
        #expect(try mainOnly.scalar("SELECT count(*) FROM sqlite_master") == .integer(0))
        let before = try folderBytes(folder.file("backup"))
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)

        let result = try Store.importCoreData(from: source, bundle: bundle, into: folder.file("zoo-remodel.sqlite"))

        #expect(result.objectCounts == ["Animal": 1, "Cat": 2, "Dog": 2, "Keeper": 2, "Zone": 2])
        #expect(result.externalFiles == 1)
        #expect(try folderBytes(folder.file("backup")) == before, "the import wrote beside the store")
        #expect(!FileManager.default.fileExists(atPath: source + "-shm"))
    }

    /// `python3`, to hold a store open in another process (SQLite's locks are per process).
    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(.enabled(if: python != nil, "python3 is not installed"), arguments: [false, true])
    func refusesAStoreAnotherProcessHasOpen(wal: Bool) throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        if wal {
            #expect(
                try SQLiteConnection(path: source, mode: .readWrite).scalar("PRAGMA journal_mode = WAL") == .text("wal")
            )
        }
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.python))
        // Holds a write transaction (rollback journal) or simply has the store open (WAL) until its input closes.
        let hold = wal ? "c.execute('SELECT count(*) FROM ZANIMAL').fetchall()" : "c.execute('BEGIN IMMEDIATE')"
        process.arguments = [
            "-c",
            "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\n\(hold)\nprint('open', flush=True)\nsys.stdin.read()",
            source,
        ]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("open"))
        let error = try #require(throws: RemodelError.self) {
            try Store.importCoreData(from: source, bundle: bundle, into: folder.file("zoo-remodel.sqlite"))
        }
        #expect(error.code == .locked)
        #expect(
            error.message
                == "another program has the Core Data store open and may be writing to it (it holds a lock on Zoo.sqlite); quit the app (or simulator) that uses it, or copy the store with its -wal file, and import again"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.file("zoo-remodel.sqlite")))
    }
}
