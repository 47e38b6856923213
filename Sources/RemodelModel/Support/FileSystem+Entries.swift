#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// The relative paths of the entries under `folder` whose name ends with `suffix`, in no particular order.
    ///
    /// Walked with `opendir`/`readdir` as Foundation's directory enumerator walks it: every entry (hidden ones too)
    /// at any depth; into subfolders, not into links to folders; the folder itself through its links. Without
    /// Foundation, whose file code a launch would otherwise map in to list a mapping folder.
    package static func entries(under folder: String, endingWith suffix: String) -> [String] {
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
