internal import Foundation

/// Adds a version to a `.xcdatamodeld` bundle as Xcode's Editor ▸ Add Model Version does, on a machine
/// without Xcode (`remodel add-version`): a copy of a version's `contents` in a new `NAME.xcdatamodel`
/// folder, made current in `.xccurrentversion`; a bundle with a `.remodel-version-order` file lists the new
/// version right after the one it copies.
///
/// It writes only files it makes: the folder with `mkdir`, every file with `O_EXCL` (a new name, never one
/// already there, never through a link), the two bundle files it changes replaced by `rename`. A failure
/// removes what it made and leaves the bundle as it was.
///
/// For example:
/// ```swift
/// let added = try BundleVersionAdder.add(to: bundle, name: nil, from: nil)
/// print(added.name) // "Library 4"
/// ```
package enum BundleVersionAdder {
    /// What was added.
    package struct Added: Sendable, Equatable {
        /// The new version's name.
        package var name: String
        /// The version it is a copy of.
        package var source: String
        /// The new version's `contents` file, for the user to edit.
        package var contentsPath: String
        /// Whether the bundle's `.remodel-version-order` file lists it.
        package var inOrderFile: Bool
    }

    /// The name Xcode proposes for a new version of `bundle`: the bundle's name and the number after the highest
    /// one its versions so named carry ("Library 2" after "Library", "CoreData 10" after "CoreData 9").
    package static func nextName(for bundle: ModelBundle) -> String {
        let prefix = bundle.name + " "
        let numbers = bundle.versionNames.compactMap { name in
            name.hasPrefix(prefix) ? Int(name.dropFirst(prefix.count)) : nil
        }
        var number = max(numbers.max() ?? 1, 1) + 1
        while bundle.versionNames.contains("\(prefix)\(number)")
            || FileSystem.exists(atPath: "\(bundle.path)/\(prefix)\(number).xcdatamodel")
        {
            number += 1
        }
        return "\(prefix)\(number)"
    }

    /// Adds version `name` (default: ``nextName(for:)``) to the bundle, a copy of `source` (default: the current
    /// version), and makes it current.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/invalidModel`` (refused, nothing written) for a model
    ///   that is not a `.xcdatamodeld` bundle, a name that a version has (or had), a name that is no folder name or
    ///   would come before its source in the version order; ``RemodelError/Code/io`` when the bundle cannot be
    ///   written. Either way the bundle is left as it was.
    package static func add(to bundle: ModelBundle, name: String?, from source: String?) throws(RemodelError) -> Added {
        let path = bundle.path.count > 1 && bundle.path.hasSuffix("/") ? String(bundle.path.dropLast()) : bundle.path
        guard FileSystem.kind(of: path) == .folder,
            FileSystem.pathExtension(of: FileSystem.lastComponent(of: path)) == "xcdatamodeld"
        else {
            throw RemodelError(
                .invalidModel,
                "a version can be added only to a .xcdatamodeld bundle, and this is a single version; put it in a folder NAME.xcdatamodeld first (its one version stays as it is)",
                path: bundle.path)
        }
        let source = source ?? bundle.currentVersionName
        guard bundle.index(ofVersion: source) != nil else { throw bundle.unknownVersion(source, code: .invalidModel) }
        let name = name ?? nextName(for: bundle)
        try checkNew(name, in: bundle, path: path, after: source)
        let folder = "\(path)/\(name).xcdatamodel"
        guard let contents = FileSystem.bytes(atPath: "\(path)/\(source).xcdatamodel/contents") else {
            throw RemodelError(
                .io, "the contents of version \"\(source)\" cannot be read",
                path: "\(path)/\(source).xcdatamodel/contents")
        }
        let orderPath = "\(path)/\(ModelBundle.versionOrderFileName)"
        let orderText = FileSystem.text(atPath: orderPath)
        // What this call made, newest first: removed again when a later step fails.
        var made: [String] = []
        var orderReplaced = false
        do throws(RemodelError) {
            try makeFolder(folder)
            made.insert(folder, at: 0)
            try FileSystem.writeNew(contents, to: folder + "/contents")
            made.insert(folder + "/contents", at: 0)
            let current = try temporaryCopy(
                of: BundleFileWriter.currentVersionPlist(name), beside: "\(path)/.xccurrentversion")
            made.insert(current, at: 0)
            if let orderText {
                let order = try temporaryCopy(of: listing(name, after: source, in: orderText), beside: orderPath)
                made.insert(order, at: 0)
                try FileSystem.replace(orderPath, with: order)
                made.removeFirst()
                orderReplaced = true
            }
            try FileSystem.replace("\(path)/.xccurrentversion", with: current)
        } catch {
            // The order file listing the new version goes back to its old text before the version's folder goes.
            if orderReplaced, let orderText, let old = try? temporaryCopy(of: orderText, beside: orderPath) {
                try? FileSystem.replace(orderPath, with: old)
            }
            for made in made { _ = FileSystem.removeItem(atPath: made) }
            throw error
        }
        return Added(name: name, source: source, contentsPath: folder + "/contents", inOrderFile: orderText != nil)
    }

    /// Refuses a name the new version cannot have.
    private static func checkNew(_ name: String, in bundle: ModelBundle, path: String, after source: String)
        throws(RemodelError)
    {
        let problem: String?
        if name.isEmpty || name.hasPrefix(".") || name.contains("/") || name.contains("\0")
            || name.contains(where: \.isNewline) || name.contains("<-") || name.hasPrefix("#")
            || name != name.trimmingCharacters(in: .whitespaces)
        {
            problem =
                "\"\(name)\" cannot name a version: a version's name is a folder's name, without '/', a leading '.' or '#', '<-', a line break or spaces around it"
        } else if bundle.versionNames.contains(name) || FileSystem.exists(atPath: "\(path)/\(name).xcdatamodel") {
            problem = "the bundle already has a version \"\(name)\"; give another --name"
        } else if let now = bundle.formerVersionNames[name] {
            problem =
                "\"\(name)\" is a former name of version \"\(now)\" (in \(ModelBundle.versionOrderFileName)): a store that recorded it is at \"\(now)\"; give another --name"
        } else if !FileSystem.exists(atPath: "\(path)/\(ModelBundle.versionOrderFileName)"),
            NaturalOrder.areInIncreasingOrder(name, source)
        {
            problem =
                "\"\(name)\" would come before \"\(source)\" in the version order (natural order of the names), so stores would have to migrate backwards to it; give a name that sorts after it, or list the order in \(ModelBundle.versionOrderFileName)"
        } else {
            problem = nil
        }
        if let problem { throw RemodelError(.invalidModel, problem + "; nothing was written", path: bundle.path) }
    }

    /// The order file's text with a line for `name` right after the line that lists `source` (at the end when no
    /// line does).
    static func listing(_ name: String, after source: String, in text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let listed = lines.firstIndex { line in
            let first = line.components(separatedBy: "<-")[0].trimmingCharacters(in: .whitespaces)
            return first == source || first == source + ".xcdatamodel"
        }
        if let listed {
            lines.insert(name, at: listed + 1)
        } else if lines.last == "" {
            lines.insert(name, at: lines.count - 1)
        } else {
            lines.append(name)
        }
        return lines.joined(separator: "\n")
    }

    /// Makes the version's folder, which must not be there.
    private static func makeFolder(_ folder: String) throws(RemodelError) {
        guard mkdir(folder, 0o755) == 0 else {
            let code = errno
            if code == EEXIST {
                throw RemodelError(
                    .invalidModel, "something is already at this path; nothing was written", path: folder)
            }
            throw RemodelError(
                .io, "the version's folder cannot be made: \(String(cString: strerror(code)))", path: folder)
        }
    }

    /// A new hidden file beside `path` holding `text`, to be renamed over it.
    private static func temporaryCopy(of text: String, beside path: String) throws(RemodelError) -> String {
        let name = FileSystem.lastComponent(of: path)
        let temporary = FileSystem.folder(of: path) + "/\(name.hasPrefix(".") ? "" : ".")\(name).remodel-\(getpid())"
        try FileSystem.writeNew(Array(text.utf8), to: temporary)
        return temporary
    }
}
