internal import Foundation
import Remodel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Core Data store opened for reading without writing a byte in it or beside it
/// (docs/CORE-DATA-STORES.md, "Reading without writing").
///
/// - A store another process has open (any SQLite lock on the file, or on its `-shm`) is refused: an
///   app may be writing to it. The check asks the kernel who holds a lock (`F_GETLK`), which takes none.
/// - A store with nothing to read beside it (no `-wal`, or an empty one, and no `-journal`) is read in
///   place with SQLite's `immutable=1`: no lock, no side file.
/// - A store whose `-wal` holds pages (in about half of the real stores, every row lives only there) or
///   with a `-journal` is copied with those files into a private folder of the temporary folder, and the
///   copy is opened: SQLite reads the log (or rolls the journal back) there, as it would in place.
final class CoreDataSource {
    /// The store as given.
    let path: String
    /// The file SQLite reads: the store itself, or its private copy.
    let readPath: String
    /// Whether `readPath` is a private copy (the store had a `-wal` with pages or a `-journal`).
    let isCopy: Bool
    private let copyFolder: String?

    /// Checks that nothing has the store open, and copies it when its side files hold data.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/storeMissing`` when there is no file,
    ///   ``RemodelError/Code/locked`` when another process has it open, ``RemodelError/Code/io`` when
    ///   the private copy cannot be made.
    init(path: String) throws(RemodelError) {
        self.path = path
        let target = try FileSystem.resolvingLinks(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw RemodelError(
                .storeMissing, "there is no Core Data store here; give the path of the app's .sqlite file", path: path)
        }
        try Self.refuseIfOpen(target, path: path)
        let sideFiles = [target + "-wal", target + "-journal"].filter { Self.size($0) > 0 }
        guard !sideFiles.isEmpty else {
            readPath = target
            isCopy = false
            copyFolder = nil
            return
        }
        let before = Self.fingerprint(target)
        let (folder, failure) = FileSystem.makePrivateFolder(prefix: "remodel-core-data")
        if let error = failure {
            throw RemodelError(
                .io,
                "the store keeps data in its side files (-wal or -journal), and Remodel, which never writes beside it, cannot make a private copy to read them in the temporary folder \(FileSystem.folder(of: folder)) (TMPDIR): \(error.localizedDescription)",
                path: path)
        }
        let copy = folder + "/" + URL(fileURLWithPath: target).lastPathComponent
        do throws(RemodelError) {
            for suffix in ["-wal", "-journal", ""] {
                _ = try FileCopy.copyIfPresent(target + suffix, to: copy + suffix)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw RemodelError(
                .io,
                "the store keeps data in its side files (-wal or -journal), and the private copy to read them could not be written: \(error.message); free some space in the temporary folder (TMPDIR)",
                path: path)
        }
        guard Self.fingerprint(target) == before else {
            try? FileManager.default.removeItem(atPath: folder)
            throw RemodelError(
                .locked,
                "another program wrote to the Core Data store while it was being read; quit the app that uses it and run the import again",
                path: path)
        }
        readPath = copy
        isCopy = true
        copyFolder = folder
    }

    deinit {
        if let copyFolder { try? FileManager.default.removeItem(atPath: copyFolder) }
    }

    /// A new connection reading the store: `immutable=1` in place, or the private copy opened as SQLite
    /// would open the store (it reads the log or rolls the journal back there), then made read-only.
    func connection() throws(RemodelError) -> SQLiteConnection { try opening.connection() }

    /// How to open the store again, on another thread (the files stay while this reader lives).
    var opening: Opening { Opening(path: path, readPath: readPath, isCopy: isCopy) }

    /// What a connection to the store is opened from: a value another thread can take.
    struct Opening: Sendable {
        let path: String
        let readPath: String
        let isCopy: Bool

        /// A new connection reading the store (``CoreDataSource/connection()``).
        func connection() throws(RemodelError) -> SQLiteConnection {
            if !isCopy { return try SQLiteConnection(immutable: readPath, reportedAs: path) }
            let connection = try SQLiteConnection(path: readPath, mode: .readWrite, reportedAs: path)
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            try connection.execute("PRAGMA query_only = ON")
            return connection
        }
    }

    /// The URI to attach the store under another connection (the same file and mode as ``connection()``).
    var attachURI: String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let file = "file:" + (readPath.addingPercentEncoding(withAllowedCharacters: allowed) ?? readPath)
        return isCopy ? file + "?mode=ro" : file + "?mode=ro&immutable=1"
    }

    // MARK: - Who has the store open

    /// SQLite's lock bytes in a database file: `PENDING` at 1 GiB, then `RESERVED`, then 510 `SHARED` bytes.
    static let databaseLockRange = (start: off_t(0x4000_0000), length: off_t(512))
    /// The lock bytes of a WAL store's `-shm`: the write, checkpoint, recover and read-mark locks, and the
    /// byte every open connection holds a shared lock on (SQLite's `DMS` byte).
    static let sharedMemoryLockRange = (start: off_t(120), length: off_t(9))

    /// Throws when another process holds any SQLite lock on the store or its `-shm`.
    static func refuseIfOpen(_ target: String, path: String) throws(RemodelError) {
        let probes = [(target, databaseLockRange), (target + "-shm", sharedMemoryLockRange)]
        for (file, range) in probes where isLocked(file, start: range.start, length: range.length) {
            throw RemodelError(
                .locked,
                "another program has the Core Data store open and may be writing to it (it holds a lock on \(URL(fileURLWithPath: file).lastPathComponent)); quit the app (or simulator) that uses it, or copy the store with its -wal file, and import again",
                path: path)
        }
    }

    /// Whether another process holds a lock on part of `file`, asked with `F_GETLK`, which takes none
    /// (the file is opened read-only and nothing is written).
    static func isLocked(_ file: String, start: off_t, length: off_t) -> Bool {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = start
        lock.l_len = length
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    private static func size(_ file: String) -> Int {
        var info = stat()
        return stat(file, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Identity, size and modification time (ns) of a file.
    private static func fingerprint(_ file: String) -> [Int] {
        var info = stat()
        guard stat(file, &info) == 0 else { return [] }
        return [Int(info.st_dev), Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
    }
}
