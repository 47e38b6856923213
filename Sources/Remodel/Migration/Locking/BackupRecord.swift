import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a migration that keeps a backup records beside it (`<store>.remodel-backup.json`), so that
/// `remodel rollback` can tell whether the store was written since: the fingerprint of the store the
/// migration made, and which file the backup is (device, inode, size and modification time of the original
/// it keeps: a file put there by hand can get the inode of the one it replaced, but not its time).
///
/// The record is removed before the backup is made and written after it, before the migrated store
/// replaces the original: a crash at any moment leaves no record, or one that matches only the store
/// the migration made, and a rollback puts a backup back only when the store matches its record.
struct BackupRecord: Sendable, Hashable {
    /// The store the migration made.
    var store: StoreFingerprint
    /// The backup's file: device, inode, size, modification time (seconds, nanoseconds); a record written by
    /// an earlier build has the first three only.
    var backupFile: [Int64]

    /// Where the record of the backup at `backupPath` is.
    static func path(for backupPath: String) -> String { StoreFiles.backupRecordPath(for: backupPath) }

    /// The new file a record is written into before it is renamed over the record.
    static func newPath(for backupPath: String) -> String { path(for: backupPath) + ".new" }

    /// The device, inode, size and modification time (seconds, nanoseconds) of a file, or `nil` when there is
    /// none (`stat`, which opens no descriptor).
    static func identity(of path: String) -> [Int64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [
            Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec),
            Int64(info.st_mtim.tv_nsec),
        ]
    }

    /// Whether the file so identified now is the backup the record names (as far as the record tells).
    func isBackup(_ identity: [Int64]) -> Bool {
        backupFile.count >= 3 && identity.starts(with: backupFile)
    }

    /// Removes the record of the backup at `backupPath`, if any.
    static func remove(for backupPath: String) {
        StoreFiles.removeIfPresent(path(for: backupPath))
    }

    /// Writes the record (replacing one there) and flushes it.
    func write(for backupPath: String) throws(RemodelError) {
        let document = JSONDocument.object([
            ("size", .int(Int(store.size))), ("changeCounter", .int(Int(store.changeCounter))),
            ("xxh64", .string(store.hash)),
            ("backupFile", .array(backupFile.map { .int(Int($0)) })),
        ])
        let target = Self.path(for: backupPath)
        let temporary = Self.newPath(for: backupPath)
        // What an interrupted write left is Remodel's; anything else there is refused, never written through.
        try FileSystem.requireOwnFile(target)
        StoreFiles.removeIfPresent(temporary)
        let descriptor = try FileSystem.createNewFile(
            temporary, flags: O_WRONLY, mode: 0o644, what: "the record of the backup")
        let bytes = Array((document.compact() + "\n").utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        let flushed = written == bytes.count && fsync(descriptor) == 0
        let failure = errno
        close(descriptor)
        guard flushed else {
            StoreFiles.removeIfPresent(temporary)
            errno = failure
            throw StoreFiles.ioError("cannot write the record of the backup", target)
        }
        try StoreFiles.replace(target, with: temporary)
    }

    /// The record of the backup at `backupPath`; `nil` when there is none or it cannot be read.
    static func read(for backupPath: String) -> BackupRecord? {
        guard let data = FileManager.default.contents(atPath: path(for: backupPath)) else { return nil }
        var parser = JSONPullParser(bytes: Array(data), path: path(for: backupPath))
        guard case .object(let members)? = try? parser.readValue() else { return nil }
        func number(_ key: String) -> Int64? {
            if case .number(let text)? = members.first(where: { $0.key == key })?.value { return Int64(text) }
            return nil
        }
        guard let size = number("size"), let counter = number("changeCounter").flatMap(UInt32.init(exactly:)),
            case .string(let hash)? = members.first(where: { $0.key == "xxh64" })?.value,
            case .array(let items)? = members.first(where: { $0.key == "backupFile" })?.value
        else { return nil }
        let file = items.compactMap { item -> Int64? in
            if case .number(let text) = item { return Int64(text) }
            return nil
        }
        guard file.count == 3 || file.count == 5 else { return nil }
        return BackupRecord(store: StoreFingerprint(size: size, changeCounter: counter, hash: hash), backupFile: file)
    }
}
