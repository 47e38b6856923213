internal import Foundation

/// The few file operations a store needs to replace files safely.
package enum FileSystem {
    /// Moves a file to a path where there must be no file, atomically (a hard link, then removing the
    /// old name); falls back to `rename` where hard links are not supported.
    package static func moveNew(from source: String, to destination: String) throws(RemodelError) {
        if link(source, destination) == 0 {
            unlink(source)
            return
        }
        let error = errno
        if error == EEXIST {
            throw RemodelError(
                .incompatibleStore, "a file appeared here while the store was being built; it was left untouched",
                path: destination)
        }
        guard !exists(atPath: destination), rename(source, destination) == 0 else {
            throw RemodelError(
                .io, "could not move the new store into place: \(String(cString: strerror(errno)))", path: destination)
        }
    }

    /// Replaces a file (or creates it) atomically with `rename`.
    package static func replace(_ destination: String, with source: String) throws(RemodelError) {
        guard rename(source, destination) == 0 else {
            throw RemodelError(
                .io, "could not move the file into place: \(String(cString: strerror(errno)))", path: destination)
        }
    }

    package static func removeQuietly(_ path: String) {
        unlink(path)
    }
}

extension FileSystem {
    /// The file a store path names once its symbolic links are followed — a chain of them, relative
    /// or absolute, into other folders — which is the file SQLite opens and beside which it keeps its
    /// `-journal`, `-wal` and `-shm`. A path that is not a link comes back as given, also when nothing
    /// is there (a link to nothing gives the path it points to).
    ///
    /// Whatever replaces or accompanies a store works on this file, in its folder: a rename over it
    /// keeps the link (a rename over the link would replace the link with a file and leave its target
    /// behind at the old version).
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/io`` for a loop of links or an unreadable one.
    package static func resolvingLinks(_ path: String) throws(RemodelError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else {
                return current == path ? path : canonicalFolder(of: current)
            }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = buffer.withUnsafeMutableBytes {
                readlink(current, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1)
            }
            guard count > 0 else {
                throw RemodelError(
                    .io, "the symbolic link \(current) cannot be read: \(String(cString: strerror(errno)))", path: path)
            }
            let target = String(decoding: buffer[..<count], as: UTF8.self)
            current = target.hasPrefix("/") ? target : folder(of: current) + "/" + target
        }
        throw RemodelError(
            .io, "the store path goes through more than 40 symbolic links (a loop?); point it at the store file",
            path: path,
            cause: POSIXError(.ELOOP))
    }

    /// `path` with its folder written without `..` or links (`a/../b/x` gives `/…/b/x`), as the
    /// folder's `realpath`; `path` itself when the folder cannot be resolved.
    private static func canonicalFolder(of path: String) -> String {
        guard let resolved = realpath(folder(of: path), nil) else { return path }
        defer { free(resolved) }
        let folder = String(cString: resolved)
        return (folder == "/" ? "" : folder) + "/" + lastComponent(of: path)
    }

    /// The folder a file is in (`.` for a bare name). By bytes: a `/` that a combining mark follows is another
    /// character to Swift's string search, and still a separator to the file system.
    package static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A new folder that only this user can enter (mode 0700) in the temporary folder, named `prefix`-UUID,
    /// for a private copy of a store that Remodel reads without writing beside it.
    /// - Returns: The folder's path, and Foundation's error when it could not be made (the caller says why it wanted it).
    package static func makePrivateFolder(prefix: String) -> (path: String, failure: (any Error)?) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
            .path
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return (folder, nil)
        } catch {
            return (folder, error)
        }
    }
}

extension FileSystem {
    /// A file's bytes, read straight into the array (what `FileManager.contents(atPath:)` then `Array(_:)` give,
    /// without the `Data` and the copy out of it: a chain reads every version of a history); nil when the file
    /// cannot be opened or read (no file, a folder, no permission).
    package static func bytes(atPath path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        // The size is where reading starts: the file may grow or shrink while it is read, and is read to its end.
        var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if read == 0 { break }
            count += read
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
