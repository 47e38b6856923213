import Foundation
import Remodel

/// The file an import writes the new store into, given the target's name only when complete.
///
/// On Linux it has no name at all until then (``UnnamedDatabaseFile``): a kill at any point leaves
/// nothing in the target's folder. Elsewhere, or on a file system without `O_TMPFILE`, it is a hidden
/// temporary file beside the target (`.STORE.remodel-core-data-…`), removed on failure, renamed with
/// `FileSystem.moveNew` (which fails if a file appeared at the target).
final class CoreDataNewStoreFile {
    /// The target as resolved (symbolic links followed), and as the user named it.
    let destination: String
    let reported: String
    private let unnamed: UnnamedDatabaseFile?
    private let temporary: String?

    init(destination: String, reportedAs reported: String) {
        self.destination = destination
        self.reported = reported
        unnamed = UnnamedDatabaseFile(in: FileSystem.folder(of: destination))
        temporary = unnamed == nil ? Store.temporaryPath(beside: destination, purpose: "core-data") : nil
    }

    /// Whether the file has no name until ``publish()`` (else a hidden temporary file is beside the target).
    var isUnnamed: Bool { unnamed != nil }

    /// A connection writing the file; its errors name the target as the user gave it.
    func connection() throws(RemodelError) -> SQLiteConnection {
        if let unnamed { return try SQLiteConnection(unnamed: unnamed, reportedAs: reported) }
        return try SQLiteConnection(path: temporary ?? destination, mode: .create, reportedAs: reported)
    }

    /// Makes the file durable, gives it the target's name, and makes the name durable. Close every
    /// connection to it first.
    func publish() throws(RemodelError) {
        if let unnamed {
            try unnamed.synchronize(reportedAs: reported)
            CoreDataFaultPoint.beforeRename.reach()
            try unnamed.link(to: destination)
        } else if let temporary {
            try StoreFiles.synchronize(file: temporary)
            CoreDataFaultPoint.beforeRename.reach()
            try FileSystem.moveNew(from: temporary, to: destination)
        }
        CoreDataFaultPoint.afterRename.reach()
        try StoreFiles.synchronize(directoryOf: destination)
    }

    /// Removes what was written (nothing to do for an unnamed file: closing it frees it).
    func discard() {
        guard let temporary else { return }
        FileSystem.removeQuietly(temporary)
        FileSystem.removeQuietly(temporary + "-journal")
    }
}
