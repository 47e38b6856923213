import Foundation
package import Remodel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The stores of a fleet as a command line gives them: paths and globs, or a
/// file of paths, one a line.
package enum StoreList {
    /// The paths, each glob expanded (sorted): an argument that names no file but holds `*`, `?` or
    /// `[` is a pattern, as a job runner passes a quoted glob.
    /// - Throws: ``RemodelError/Code/io`` naming a pattern that matches no file.
    package static func expand(_ arguments: [String]) throws(RemodelError) -> [String] {
        var paths: [String] = []
        for argument in arguments {
            guard isPattern(argument) else {
                paths.append(argument)
                continue
            }
            let matches = glob(argument)
            guard !matches.isEmpty else {
                throw RemodelError(
                    .io, "no file matches the pattern \(argument); check the folder and the pattern", path: argument)
            }
            paths += matches
        }
        return paths
    }

    /// Whether `argument` is a glob pattern rather than a path: it has a wildcard and no file has that name.
    package static func isPattern(_ argument: String) -> Bool {
        argument.contains { "*?[".contains($0) } && !FileManager.default.fileExists(atPath: argument)
    }

    /// The paths in a list file, one a line (`-`: standard input; `\n` or `\r\n`); empty lines are skipped.
    package static func read(listAt path: String) throws(RemodelError) -> [String] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw RemodelError(
                    .io, "cannot read the list of stores; check the path and its permissions", path: path)
            }
            data = contents
        }
        // `\r\n` is one Character: splitting at newlines takes both line ends.
        return String(decoding: data, as: UTF8.self).split(whereSeparator: { $0.isNewline }).map(String.init)
    }

    /// The paths without repeats (the same file named twice, relative or absolute), in their order.
    package static func unique(_ paths: [String]) -> [String] {
        var seen = Set<String>()
        return paths.filter { seen.insert(identity(of: $0)).inserted }
    }

    /// The absolute, standardized form of a path, by which two runs recognise the same store.
    package static func identity(of path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The paths a pattern matches, sorted (glob(3) sorts them; this process keeps the C locale: by bytes).
    private static func glob(_ pattern: String) -> [String] {
        var found = glob_t()
        defer { globfree(&found) }
        #if canImport(Glibc)
            let status = Glibc.glob(pattern, 0, nil, &found)
        #else
            let status = Darwin.glob(pattern, 0, nil, &found)
        #endif
        guard status == 0 else { return [] }
        return (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }
    }
}
