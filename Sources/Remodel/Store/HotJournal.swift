internal import Foundation

/// A rollback journal that a program left beside a store when it stopped in the middle of a write
/// (SQLite calls it a *hot journal*): the store file holds part of an unfinished transaction and the
/// journal holds the pages it overwrote. SQLite rolls the store back the next time a connection that
/// may write opens it; a read-only connection cannot, and refuses to read with
/// `SQLITE_READONLY_ROLLBACK` (776).
///
/// Inspection never writes, so it reads a private copy of the store and its journal, rolled back in
/// the system's temporary folder (``StoreSnapshot``); a migration lets SQLite roll the store itself
/// back under its lock and says so in its report.
enum HotJournal {
    /// `SQLITE_READONLY_ROLLBACK`: a read-only connection met a hot journal.
    static let readOnlyRollbackCode: Int32 = 776

    /// The journal beside a store file (its symbolic links already followed: SQLite keeps the journal
    /// beside the file the links lead to).
    static func path(beside target: String) -> String { target + "-journal" }

    /// Whether the journal beside the store looks like it holds a transaction: it exists, is not empty
    /// and its header is not zeroed (a journal kept after a commit in `PERSIST` mode is zeroed). Reads
    /// the journal, never the store. A transaction still running in another process looks the same:
    /// ``isHot(_:)`` tells them apart.
    static func mayBeHot(beside target: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path(beside: target)) else { return false }
        defer { try? handle.close() }
        guard let first = try? handle.read(upToCount: 1)?.first else { return false }
        return first != 0
    }

    /// SQLite's own verdict on the store at `target`: its journal is hot when a read-only connection
    /// refuses to read with `SQLITE_READONLY_ROLLBACK` (SQLite checks that no process is writing).
    static func isHot(_ target: String) -> Bool {
        guard mayBeHot(beside: target) else { return false }
        do throws(RemodelError) {
            let connection = try SQLiteConnection(path: target, mode: .readOnly)
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            return false
        } catch {
            return error.sqliteCode == readOnlyRollbackCode
        }
    }

    /// Copies a store and its hot journal into a new private folder (mode 0700) of the temporary
    /// folder, under the store's own name, and returns the folder and the copy's path. The journal is
    /// copied first: if another process rolls the store back meanwhile, the copy of the store is
    /// somewhere between the two states and the copied journal still takes it back to the first.
    /// - Returns: `nil` when the journal is gone (another process finished the rollback: read the store).
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/io`` when the copy cannot be
    ///   written.
    static func copy(of target: String, path: String) throws(RemodelError) -> (folder: String, store: String)? {
        let (folder, failure) = FileSystem.makePrivateFolder(prefix: "remodel-rollback")
        if let error = failure {
            throw RemodelError(
                .io,
                "the store has a hot journal (a program stopped in the middle of a write), and Remodel, which does not write to a store to look at it, cannot make a private copy to roll back in the temporary folder \(FileSystem.folder(of: folder)) (TMPDIR): \(error.localizedDescription)",
                path: path)
        }
        let copy = folder + "/" + URL(fileURLWithPath: target).lastPathComponent
        do throws(RemodelError) {
            guard try FileCopy.copyIfPresent(self.path(beside: target), to: self.path(beside: copy)) else {
                try? FileManager.default.removeItem(atPath: folder)
                return nil
            }
            guard try FileCopy.copyIfPresent(target, to: copy) else {
                throw RemodelError(.io, "the store disappeared while it was being read", path: path)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw RemodelError(
                .io,
                "the store has a hot journal (a program stopped in the middle of a write), and Remodel, which does not write to a store to look at it, cannot copy it to roll the copy back: \(error.message); free some space in the temporary folder (TMPDIR) or open the store for writing (the app or `remodel migrate` rolls it back)",
                path: path)
        }
        return (folder, copy)
    }
}
