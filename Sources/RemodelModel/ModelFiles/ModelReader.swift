import Foundation

/// What reading a model path gave: the bundle (when at least one version could
/// be read) and every problem met on the way.
public struct ModelReadResult: Sendable {
    /// The bundle, or `nil` when no version could be read.
    public var bundle: ModelBundle?
    /// Problems found while reading (malformed XML, wrong root, legacy versions, …).
    public var diagnostics: [Diagnostic]
}

/// Reads models from disk: a `.xcdatamodeld` bundle, a `.xcdatamodel` folder or a bare `contents` file.
///
/// For example:
/// ```swift
/// let result = ModelReader.read(path: "Models/Library.xcdatamodeld")
/// for diagnostic in result.diagnostics { print(diagnostic) }
/// ```
public enum ModelReader {
    /// The name of the optional file in a bundle that lists version names, oldest first, one a line.
    public static let versionOrderFileName = VersionOrderFile.fileName

    /// Reads the model at `path`, collecting every problem instead of stopping at the first.
    public static func read(path: String) -> ModelReadResult {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else {
            return failure(
                "no model at this path; give a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file", trimmed)
        }
        let url = URL(fileURLWithPath: trimmed)
        if !isDirectory.boolValue {
            let versionName =
                url.deletingLastPathComponent().pathExtension == "xcdatamodel"
                ? url.deletingLastPathComponent().deletingPathExtension().lastPathComponent
                : url.deletingPathExtension().lastPathComponent
            return single(contentsPath: trimmed, versionName: versionName, bundleName: versionName)
        }
        if url.pathExtension == "xcdatamodel" {
            let name = url.deletingPathExtension().lastPathComponent
            return single(contentsPath: trimmed + "/contents", versionName: name, bundleName: name, folder: trimmed)
        }
        return bundle(at: trimmed)
    }

    private static func failure(_ message: String, _ path: String, rule: DiagnosticRule = .unreadableModel)
        -> ModelReadResult
    {
        ModelReadResult(
            bundle: nil,
            diagnostics: [Diagnostic(.error, rule: rule, message: message, at: SourceLocation(file: path))])
    }

    private static func single(contentsPath: String, versionName: String, bundleName: String, folder: String? = nil)
        -> ModelReadResult
    {
        guard FileManager.default.fileExists(atPath: contentsPath) else {
            return legacyFailure(folder: folder ?? contentsPath)
        }
        let (version, diagnostics) = ModelFileReader.read(
            path: contentsPath, displayPath: contentsPath, versionName: versionName)
        let bundle = version.map { ModelBundle(name: bundleName, path: folder ?? contentsPath, versions: [$0]) }
        return ModelReadResult(bundle: bundle, diagnostics: diagnostics)
    }

    private static func legacyFailure(folder: String) -> ModelReadResult {
        failure(
            "the version folder has no 'contents' file; it is a legacy binary model, which Remodel does not read; open it in Xcode and save it to convert it to the XML format",
            folder, rule: .unsupportedLegacyModel)
    }

    /// What a bundle folder says without reading any version: its version folders in migration order,
    /// the current version, former names, and problems with the order file or `.xccurrentversion`.
    struct Listing {
        var name: String
        var path: String
        /// Version names in migration order, with their `contents` paths (nil for a legacy binary version).
        var versions: [(name: String, contents: String?)]
        var currentVersionName: String?
        var formerVersionNames: [String: String]
        var diagnostics: [Diagnostic]
    }

    static func listing(at path: String) -> Listing? {
        let entries = FileSystem.names(in: path)
        let folders = entries.filter { $0.hasSuffix(".xcdatamodel") }
        guard !folders.isEmpty else { return nil }
        var diagnostics: [Diagnostic] = []
        var contentsByName: [String: String?] = [:]
        for folder in folders {
            let contents = "\(path)/\(folder)/contents"
            contentsByName[String(folder.dropLast(".xcdatamodel".count))] =
                FileSystem.exists(atPath: contents) ? contents : nil
        }
        let (ordered, former, orderDiagnostics) = VersionOrderFile.order(Array(contentsByName.keys), bundlePath: path)
        diagnostics += orderDiagnostics
        let (current, currentDiagnostics) = currentVersionName(bundlePath: path, known: Set(contentsByName.keys))
        diagnostics += currentDiagnostics
        return Listing(
            name: String(FileSystem.deletingExtension(of: FileSystem.lastComponent(of: path))), path: path,
            versions: ordered.map { ($0, contentsByName[$0] ?? nil) }, currentVersionName: current,
            formerVersionNames: former,
            diagnostics: diagnostics)
    }

    private static func bundle(at path: String) -> ModelReadResult {
        guard let listing = listing(at: path) else {
            return failure(
                "the folder holds no .xcdatamodel version; give a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file",
                path)
        }
        var diagnostics: [Diagnostic] = []
        var versions: [ModelVersion] = []
        // The versions share the records of the tags they write alike, each decoded once.
        let pool = TagRecordPool()
        for (versionName, contents) in listing.versions {
            guard let contents else {
                diagnostics += legacyFailure(folder: "\(path)/\(versionName).xcdatamodel").diagnostics
                continue
            }
            let (version, found) = ModelFileReader.read(
                path: contents, displayPath: contents, versionName: versionName, pool: pool)
            diagnostics += found
            if let version { versions.append(version) }
        }
        diagnostics += listing.diagnostics
        guard !versions.isEmpty else { return ModelReadResult(bundle: nil, diagnostics: diagnostics) }
        return ModelReadResult(
            bundle: ModelBundle(
                name: listing.name, path: path, versions: versions, currentVersionName: listing.currentVersionName,
                formerVersionNames: listing.formerVersionNames),
            diagnostics: diagnostics)
    }

    /// A bundle whose versions are read when first asked for; reads the current version now, so a
    /// broken current version fails here.
    static func lazyBundle(at path: String) throws(RemodelError) -> ModelBundle {
        guard let listing = listing(at: path) else {
            return try eagerBundle(at: path)
        }
        if let error = listing.diagnostics.first(where: { $0.severity == .error }) {
            throw RemodelError(.invalidModel, error.message, location: error.location)
        }
        if let legacy = listing.versions.first(where: { $0.contents == nil }) {
            let diagnostic = legacyFailure(folder: "\(path)/\(legacy.name).xcdatamodel").diagnostics[0]
            throw RemodelError(.invalidModel, diagnostic.message, location: diagnostic.location)
        }
        var files: [String: String] = [:]
        for (name, contents) in listing.versions { files[name] = contents }
        let paths = files
        // The versions share the element records' attributes they write alike.
        let pool = TagRecordPool()
        let bundle = ModelBundle(
            name: listing.name, path: path, versionNames: listing.versions.map(\.name),
            currentVersionName: listing.currentVersionName,
            formerVersionNames: listing.formerVersionNames
        ) { name in
            guard let contents = paths[name] else {
                return .failure(RemodelError(.invalidModel, "no version '\(name)'", path: path))
            }
            let (version, diagnostics) = ModelFileReader.read(
                path: contents, displayPath: contents, versionName: name, pool: pool)
            if let error = diagnostics.first(where: { $0.severity == .error }) {
                return .failure(RemodelError(.invalidModel, error.message, location: error.location))
            }
            guard let version else {
                return .failure(RemodelError(.invalidModel, "version '\(name)' could not be read", path: contents))
            }
            return .success(version)
        }
        _ = try bundle.loadVersion(named: bundle.currentVersionName)
        return bundle
    }

    static func eagerBundle(at path: String) throws(RemodelError) -> ModelBundle {
        let result = ModelReader.read(path: path)
        if let error = result.diagnostics.first(where: { $0.severity == .error }) {
            throw RemodelError(.invalidModel, error.message, location: error.location)
        }
        guard let bundle = result.bundle else {
            throw RemodelError(.invalidModel, "no model version could be read", path: path)
        }
        return bundle
    }

    private static func currentVersionName(bundlePath: String, known: Set<String>) -> (String?, [Diagnostic]) {
        let plistPath = "\(bundlePath)/.xccurrentversion"
        guard FileSystem.exists(atPath: plistPath) else { return (nil, []) }
        let root: XMLNode
        do {
            root = try XMLDocumentReader.read(path: plistPath)
        } catch {
            return (nil, [Diagnostic(.error, rule: .malformedXML, message: error.message, at: error.location)])
        }
        guard let dict = root.children(named: "dict").first else { return (nil, []) }
        let items = dict.children
        for (index, item) in items.enumerated() where item.name == "key" && item.text == "_XCCurrentVersionName" {
            guard index + 1 < items.count, items[index + 1].name == "string" else { break }
            let value = items[index + 1]
            let name = value.text.hasSuffix(".xcdatamodel") ? String(value.text.dropLast(12)) : value.text
            if !known.contains(name) {
                let message =
                    "the current version is '\(value.text)', but the bundle has no such version folder; choose an existing version in Xcode or fix .xccurrentversion"
                return (
                    nil, [Diagnostic(.error, rule: .missingCurrentVersion, message: message, at: value.location)]
                )
            }
            return (name, [])
        }
        return (nil, [])
    }
}

extension ModelBundle {
    /// Reads a model bundle, throwing the first error of its listing or its current version.
    ///
    /// Other versions are read when first asked for (``ModelBundle/loadVersion(named:)``), so an app
    /// opening a current store reads one version of a bundle of many; `remodel validate` reads them all.
    ///
    /// For example:
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
    /// ```
    /// - Parameter path: A `.xcdatamodeld` bundle, a `.xcdatamodel` folder or a `contents` file.
    /// - Throws: ``RemodelError`` with code ``RemodelError/Code/invalidModel`` naming the file and position.
    public init(contentsOf path: String) throws(RemodelError) {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        if FileSystem.kind(of: trimmed) == .folder,
            FileSystem.pathExtension(of: FileSystem.lastComponent(of: trimmed)) != "xcdatamodel"
        {
            self = try ModelReader.lazyBundle(at: trimmed)
        } else {
            self = try ModelReader.eagerBundle(at: trimmed)
        }
    }
}
