import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Files that are not a migratable store, given to `remodel migrate` and `remodel status`:
/// each is refused with one sentence, its bytes and its folder stay as they were, and
/// nothing is left behind.
struct HostileStoreTests {
    /// A hostile store: how to make it in a folder (returns the store path) and whether the
    /// commands run as an unprivileged user (for permissions; the tests may run as root).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Whether `status` succeeds (the file is a readable store; only writing is impossible).
        var statusSucceeds = false
        var unprivileged = false
        var make: @Sendable (String) throws -> String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "garbage bytes") { folder in
            let path = folder + "/library.sqlite"
            try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(
                to: URL(fileURLWithPath: path))
            return path
        },
        Case(name: "empty file") { folder in
            let path = folder + "/library.sqlite"
            _ = FileManager.default.createFile(atPath: path, contents: Data())
            return path
        },
        Case(name: "SQLite header then garbage") { folder in
            let path = folder + "/library.sqlite"
            try Data(Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0xA5, count: 4096 - 16)).write(
                to: URL(fileURLWithPath: path))
            return path
        },
        Case(name: "truncated store, half a page") { folder in
            let path = folder + "/library.sqlite"
            try Reliability.makeStore(at: path, people: 200)
            try truncate(path, to: 2_000)
            return path
        },
        Case(name: "truncated store, whole pages") { folder in
            let path = folder + "/library.sqlite"
            try Reliability.makeStore(at: path, people: 200)
            try truncate(path, to: 4096 * 3)
            return path
        },
        Case(name: "another program's SQLite database") { folder in
            let path = folder + "/library.sqlite"
            let connection = try SQLiteConnection(path: path, mode: .create)
            try connection.execute(
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello')")
            return path
        },
        Case(name: "metadata edited to nonsense") { folder in
            let path = folder + "/library.sqlite"
            try Reliability.makeStore(at: path, people: 20)
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.execute("UPDATE \"_RemodelMetadata\" SET \"value\" = 'nonsense ☃ \"; DROP TABLE x; --'")
            return path
        },
        Case(name: "metadata table emptied") { folder in
            let path = folder + "/library.sqlite"
            try Reliability.makeStore(at: path, people: 20)
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.execute("DELETE FROM \"_RemodelMetadata\"")
            return path
        },
        Case(name: "metadata table of the wrong shape") { folder in
            let path = folder + "/library.sqlite"
            try Reliability.makeStore(at: path, people: 20)
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.execute(
                "DROP TABLE \"_RemodelMetadata\"; CREATE TABLE \"_RemodelMetadata\" (x BLOB); INSERT INTO \"_RemodelMetadata\" VALUES (x'00ff')"
            )
            return path
        },
        Case(name: "read-only store file", statusSucceeds: true, unprivileged: true) { folder in
            let path = folder + "/library.sqlite"
            try Reliability.makeStore(at: path, people: 20)
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            return path
        },
        Case(name: "read-only folder", statusSucceeds: true, unprivileged: true) { folder in
            let path = folder + "/library.sqlite"
            try Reliability.makeStore(at: path, people: 20)
            try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
            return path
        },
        // The same two as the user running the tests (root here): refused by the mode bits, which root's
        // access(2) checks ignore.
        Case(name: "read-only store file, as its owner (or root)", statusSucceeds: true) { folder in
            let path = folder + "/library.sqlite"
            try Reliability.makeStore(at: path, people: 20)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            return path
        },
        Case(name: "read-only folder, as its owner (or root)", statusSucceeds: true) { folder in
            let path = folder + "/library.sqlite"
            try Reliability.makeStore(at: path, people: 20)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
            return path
        },
        Case(name: "a folder") { folder in
            let path = folder + "/library.sqlite"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            _ = FileManager.default.createFile(atPath: path + "/inside", contents: Data("x".utf8))
            return path
        },
    ]

    private static func truncate(_ path: String, to size: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    /// Every file under the folder with its bytes (folders as "<folder>").
    private static func snapshot(_ folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let entry = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + entry, isDirectory: &isFolder)
            result[entry] =
                isFolder.boolValue
                ? Data("<folder>".utf8)
                : FileManager.default.contents(atPath: folder + "/" + entry) ?? Data("<unreadable>".utf8)
        }
        return result
    }

    private func expectOneSentence(_ outcome: Reliability.Outcome, _ store: String, _ name: String) {
        let lines = outcome.error.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "\(name): \(outcome)")
        #expect(outcome.error.contains(store), "\(name): the message names no path: \(outcome.error)")
        #expect(!outcome.error.contains("another process"), "\(name): a misleading message: \(outcome.error)")
    }

    /// The migrated store keeps the original's permissions (a private 0600 store must not
    /// come back world-readable with the umask's 0644).
    @Test(arguments: [0o600, 0o640, 0o664]) func migratedStoreKeepsThePermissions(mode: Int) throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 20)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: store)
        let outcome = try Reliability.migrate(store)
        #expect(outcome.status == 0, "\(outcome)")
        let attributes = try FileManager.default.attributesOfItem(atPath: store)
        #expect((attributes[.posixPermissions] as? Int) == mode)
    }

    /// Root may migrate a store that its owner may write (an administrator migrating a service's
    /// stores): only a store no one may write is refused. The migrated store keeps owner and mode.
    @Test(.enabled(if: geteuid() == 0)) func rootMigratesAStoreItsOwnerMayWrite() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 20)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600, .ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: store)
        let outcome = try Reliability.migrate(store)
        #expect(outcome.status == 0, "\(outcome)")
        let attributes = try FileManager.default.attributesOfItem(atPath: store)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((attributes[.ownerAccountID] as? Int) == 65534)
    }

    /// In a sticky folder (like /tmp) only a file's owner may rename over it: another user's migration
    /// is refused before it starts, not after the whole migration when the rename fails.
    @Test(.enabled(if: geteuid() == 0)) func anotherUsersStoreInAStickyFolderIsRefusedUpFront() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: 20)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: store)
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: folder.path)
        let before = Self.snapshot(folder.path)
        let outcome = try Reliability.migrate(store, unprivileged: true)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.error.contains("sticky"), "\(outcome)")
        expectOneSentence(outcome, store, "sticky folder")
        #expect(Self.snapshot(folder.path) == before)
    }

    @Test(arguments: cases) func migrateRefusesAndChangesNothing(hostile: Case) throws {
        let folder = try TemporaryFolder()
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let store = try hostile.make(folder.path)
        let before = Self.snapshot(folder.path)
        let outcome = try Reliability.migrate(store, unprivileged: hostile.unprivileged)
        #expect(outcome.status == 1, "\(hostile.name): \(outcome)")
        expectOneSentence(outcome, store, hostile.name)
        #expect(Self.snapshot(folder.path) == before, "\(hostile.name): the folder changed")
    }

    @Test(arguments: cases) func statusReportsAndChangesNothing(hostile: Case) throws {
        let folder = try TemporaryFolder()
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let store = try hostile.make(folder.path)
        let before = Self.snapshot(folder.path)
        let outcome = try Reliability.status(store, unprivileged: hostile.unprivileged)
        if hostile.statusSucceeds {
            #expect(outcome.status == 0, "\(hostile.name): \(outcome)")
            #expect(outcome.output.contains("Next: migrate"), "\(hostile.name): \(outcome)")
        } else {
            #expect(outcome.status == 1, "\(hostile.name): \(outcome)")
            expectOneSentence(outcome, store, hostile.name)
        }
        #expect(Self.snapshot(folder.path) == before, "\(hostile.name): the folder changed")
    }
}
