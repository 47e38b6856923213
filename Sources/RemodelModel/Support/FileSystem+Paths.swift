#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a migration asks of the file system on its way — whether a path is there and is a folder, a folder's
/// names, removing a file, a path's last component — with POSIX calls, answering as Foundation's `FileManager` and
/// `URL` do. Without Foundation, whose file and URL code would otherwise be mapped into every migrating process
/// (`FileSystemPathsTests` holds each to Foundation's answer).
extension FileSystem {
    /// What is at a path, through links.
    package enum Kind {
        case file
        case folder
    }

    /// What is at `path` (following links, as `FileManager.fileExists(atPath:isDirectory:)`), or nil.
    package static func kind(of path: String) -> Kind? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR ? .folder : .file
    }

    /// Whether something is at `path`, through links (`FileManager.fileExists(atPath:)`).
    package static func exists(atPath path: String) -> Bool {
        kind(of: path) != nil
    }

    /// The names in a folder (hidden ones too, not `.` and `..`), in no particular order; empty when it cannot be
    /// read.
    package static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The text of the file at `path` when its bytes are UTF-8 (after a byte order mark, if any), as
    /// `String(contentsOfFile:encoding: .utf8)` reads it; nil when it cannot be read or is not UTF-8.
    package static func text(atPath path: String) -> String? {
        guard let bytes = bytes(atPath: path) else { return nil }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let text = String(decoding: body, as: UTF8.self)
        return text.utf8.elementsEqual(body) ? text : nil
    }

    /// Removes what is at `path` — a file or a link itself, or a folder with everything in it — as
    /// `FileManager.removeItem(atPath:)`; false when something could not be removed.
    @discardableResult
    package static func removeItem(atPath path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        guard status.st_mode & S_IFMT == S_IFDIR else { return unlink(path) == 0 }
        var removedAll = true
        for name in names(in: path) where !removeItem(atPath: path + "/" + name) { removedAll = false }
        return rmdir(path) == 0 && removedAll
    }

    /// The last component of a path (`a/B.xcdatamodeld` gives `B.xcdatamodeld`), as `URL.lastPathComponent`
    /// gives it for a path without `.` or `..` components. By bytes, as the file system reads a path: a `/` that
    /// a combining mark follows is another character to Swift's string search, and still a separator.
    package static func lastComponent(of path: String) -> Substring {
        let slash = UInt8(ascii: "/")
        let utf8 = path.utf8
        var end = utf8.endIndex
        while utf8.distance(from: utf8.startIndex, to: end) > 1, utf8[utf8.index(before: end)] == slash {
            end = utf8.index(before: end)
        }
        let trimmed = path[..<end]
        guard trimmed.utf8.count > 1, let last = trimmed.utf8.lastIndex(of: slash) else { return trimmed }
        return trimmed[trimmed.utf8.index(after: last)...]
    }

    /// A name without its extension (`B.xcdatamodeld` gives `B`; `.hidden` and `B.` stay as they are), by bytes.
    static func deletingExtension(of name: Substring) -> Substring {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex,
            name.utf8.index(after: dot) != name.endIndex
        else { return name }
        return name[..<dot]
    }

    /// A name's extension (`xcdatamodeld`), or "" (see ``deletingExtension(of:)``; one with a space is none, as
    /// `URL` has it).
    package static func pathExtension(of name: Substring) -> Substring {
        let base = deletingExtension(of: name)
        guard base.endIndex != name.endIndex else { return "" }
        let found = name[name.utf8.index(after: base.endIndex)...]
        return found.utf8.contains(UInt8(ascii: " ")) ? "" : found
    }
}
