#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What reading a model and its mappings asks of the file system, with POSIX calls as Foundation's `FileManager` and
/// `URL` answer it: whether a path is there and is a folder, a folder's names, a file's bytes, and the entries under
/// a folder. Without Foundation, whose file and URL code a launch would otherwise map in (`FileTreeTests` holds each
/// to Foundation's answer).
enum FileTree {
    /// What is at a path, through links.
    enum Kind {
        case file
        case folder
    }

    /// What is at `path` (following links, as `FileManager.fileExists(atPath:isDirectory:)`), or nil.
    static func kind(of path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR ? .folder : .file
    }

    /// The names in a folder (hidden ones too, not `.` and `..`), in no particular order; empty when it cannot be
    /// read.
    static func names(in folder: String) -> [String] {
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

    /// The bytes of the file at `path`, or nil when it cannot be read (or is a folder).
    static func bytes(at path: String) -> [UInt8]? {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size) + 1)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// The last component of a path (`a/B.xcdatamodeld` gives `B.xcdatamodeld`), as `URL.lastPathComponent`.
    static func lastComponent(of path: String) -> Substring {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed.count > 1 else { return trimmed }
        return trimmed[trimmed.index(after: slash)...]
    }

    /// A name without its extension (`B.xcdatamodeld` gives `B`; `.hidden` and `B.` stay as they are).
    static func deletingExtension(of name: Substring) -> Substring {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex
        else { return name }
        return name[..<dot]
    }

    /// A name's extension (`xcdatamodeld`), or "" (see ``deletingExtension(of:)``; one with a space is none, as
    /// `URL` has it).
    static func pathExtension(of name: Substring) -> Substring {
        let base = deletingExtension(of: name)
        guard base.endIndex != name.endIndex else { return "" }
        let found = name[name.index(after: base.endIndex)...]
        return found.contains(" ") ? "" : found
    }

    /// The entries under a folder whose name ends with `suffix`, walked as Foundation's directory enumerator walks
    /// it: every entry (hidden ones too) at any depth, by its path relative to the folder; into subfolders, not into
    /// links to folders; the folder itself through its links. In no particular order.
    static func entries(under folder: String, endingWith suffix: String) -> [String] {
        var resolved = folder
        if let real = realpath(folder, nil) {
            resolved = String(cString: real)
            free(real)
        }
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            guard let directory = opendir(relative.isEmpty ? resolved : resolved + "/" + relative) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != ".." else { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                if path.hasSuffix(suffix) { found.append(path) }
                var info = stat()
                if lstat(resolved + "/" + path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { pending.append(path) }
            }
        }
        return found
    }
}
