internal import Foundation

/// The few file operations a store needs to replace files safely.
enum FileSystem {
    /// Flushes a file's bytes to disk.
    static func synchronize(path: String) throws(RemodelError) {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw RemodelError(.io, "could not open the file to flush it", path: path)
        }
        defer { try? handle.close() }
        do {
            try handle.synchronize()
        } catch {
            throw RemodelError(.io, "could not flush the file to disk: \(error.localizedDescription)", path: path)
        }
    }

    /// Moves a file to a path where there must be no file, atomically (a hard link, then removing the
    /// old name); falls back to `rename` where hard links are not supported.
    static func moveNew(from source: String, to destination: String) throws(RemodelError) {
        if link(source, destination) == 0 {
            unlink(source)
            return
        }
        let error = errno
        if error == EEXIST {
            throw RemodelError(.incompatibleStore, "a file appeared here while the store was being built; it was left untouched", path: destination)
        }
        guard !FileManager.default.fileExists(atPath: destination), rename(source, destination) == 0 else {
            throw RemodelError(.io, "could not move the new store into place: \(String(cString: strerror(errno)))", path: destination)
        }
    }

    /// Replaces a file (or creates it) atomically with `rename`.
    static func replace(_ destination: String, with source: String) throws(RemodelError) {
        guard rename(source, destination) == 0 else {
            throw RemodelError(.io, "could not move the file into place: \(String(cString: strerror(errno)))", path: destination)
        }
    }

    static func removeQuietly(_ path: String) {
        unlink(path)
    }
}
