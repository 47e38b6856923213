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
    public static let versionOrderFileName = ".remodel-version-order"

    /// Reads the model at `path`, collecting every problem instead of stopping at the first.
    public static func read(path: String) -> ModelReadResult {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else {
            return failure("no model at this path; give a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file", trimmed)
        }
        let url = URL(fileURLWithPath: trimmed)
        if !isDirectory.boolValue {
            let versionName = url.deletingLastPathComponent().pathExtension == "xcdatamodel"
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

    private static func failure(_ message: String, _ path: String, rule: String = "unreadable-model") -> ModelReadResult {
        ModelReadResult(
            bundle: nil,
            diagnostics: [Diagnostic(.error, rule: rule, message: message, at: SourceLocation(file: path))])
    }

    private static func single(contentsPath: String, versionName: String, bundleName: String, folder: String? = nil) -> ModelReadResult {
        guard FileManager.default.fileExists(atPath: contentsPath) else {
            return legacyFailure(folder: folder ?? contentsPath)
        }
        let (version, diagnostics) = ModelFileReader.read(path: contentsPath, displayPath: contentsPath, versionName: versionName)
        let bundle = version.map { ModelBundle(name: bundleName, path: folder ?? contentsPath, versions: [$0]) }
        return ModelReadResult(bundle: bundle, diagnostics: diagnostics)
    }

    private static func legacyFailure(folder: String) -> ModelReadResult {
        failure(
            "the version folder has no 'contents' file; it is a legacy binary model, which Remodel does not read; open it in Xcode and save it to convert it to the XML format",
            folder, rule: "unsupported-legacy-model")
    }

    private static func bundle(at path: String) -> ModelReadResult {
        let url = URL(fileURLWithPath: path)
        let name = url.deletingPathExtension().lastPathComponent
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let folders = entries.filter { $0.hasSuffix(".xcdatamodel") }
        guard !folders.isEmpty else {
            return failure("the folder holds no .xcdatamodel version; give a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file", path)
        }
        var diagnostics: [Diagnostic] = []
        var versions: [ModelVersion] = []
        for folder in folders {
            let versionName = String(folder.dropLast(".xcdatamodel".count))
            let contents = "\(path)/\(folder)/contents"
            guard FileManager.default.fileExists(atPath: contents) else {
                diagnostics += legacyFailure(folder: "\(path)/\(folder)").diagnostics
                continue
            }
            let (version, found) = ModelFileReader.read(path: contents, displayPath: contents, versionName: versionName)
            diagnostics += found
            if let version { versions.append(version) }
        }
        let (ordered, orderDiagnostics) = order(versions, bundlePath: path)
        diagnostics += orderDiagnostics
        let (current, currentDiagnostics) = currentVersionName(bundlePath: path, known: Set(folders.map { String($0.dropLast(12)) }))
        diagnostics += currentDiagnostics
        guard !ordered.isEmpty else { return ModelReadResult(bundle: nil, diagnostics: diagnostics) }
        return ModelReadResult(
            bundle: ModelBundle(name: name, path: path, versions: ordered, currentVersionName: current), diagnostics: diagnostics)
    }

    private static func order(_ versions: [ModelVersion], bundlePath: String) -> ([ModelVersion], [Diagnostic]) {
        let natural = versions.sorted { NaturalOrder.areInIncreasingOrder($0.name, $1.name) }
        let orderPath = "\(bundlePath)/\(versionOrderFileName)"
        guard let text = try? String(contentsOfFile: orderPath, encoding: .utf8) else { return (natural, []) }
        var diagnostics: [Diagnostic] = []
        var listed: [ModelVersion] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let name = line.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.hasPrefix("#") else { continue }
            let bare = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(12)) : name
            if let version = versions.first(where: { $0.name == bare }) {
                if !listed.contains(where: { $0.name == bare }) { listed.append(version) }
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, rule: "version-order-unknown",
                        message: "the version order names '\(bare)', which is not a version of this bundle",
                        at: SourceLocation(file: orderPath, line: number + 1, column: 1)))
            }
        }
        for version in natural where !listed.contains(where: { $0.name == version.name }) {
            diagnostics.append(
                Diagnostic(
                    .error, rule: "version-order-incomplete",
                    message: "the version order does not list version '\(version.name)'; add it on its own line where it belongs",
                    at: SourceLocation(file: orderPath, line: 1, column: 1)))
            listed.append(version)
        }
        return (listed, diagnostics)
    }

    private static func currentVersionName(bundlePath: String, known: Set<String>) -> (String?, [Diagnostic]) {
        let plistPath = "\(bundlePath)/.xccurrentversion"
        guard FileManager.default.fileExists(atPath: plistPath) else { return (nil, []) }
        let root: XMLNode
        do {
            root = try XMLDocumentReader.read(path: plistPath)
        } catch {
            return (nil, [Diagnostic(.error, rule: "malformed-xml", message: error.message, at: error.location)])
        }
        guard let dict = root.children(named: "dict").first else { return (nil, []) }
        let items = dict.children
        for (index, item) in items.enumerated() where item.name == "key" && item.text == "_XCCurrentVersionName" {
            guard index + 1 < items.count, items[index + 1].name == "string" else { break }
            let value = items[index + 1]
            let name = value.text.hasSuffix(".xcdatamodel") ? String(value.text.dropLast(12)) : value.text
            if !known.contains(name) {
                let message = "the current version is '\(value.text)', but the bundle has no such version folder; choose an existing version in Xcode or fix .xccurrentversion"
                return (nil, [Diagnostic(.error, rule: "missing-current-version", message: message, at: value.location)])
            }
            return (name, [])
        }
        return (nil, [])
    }
}

extension ModelBundle {
    /// Reads a model bundle, throwing the first reading error.
    ///
    /// For example:
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
    /// ```
    /// - Parameter path: A `.xcdatamodeld` bundle, a `.xcdatamodel` folder or a `contents` file.
    /// - Throws: ``RemodelError`` with code ``RemodelError/Code/invalidModel`` naming the file and position.
    public init(contentsOf path: String) throws(RemodelError) {
        let result = ModelReader.read(path: path)
        if let error = result.diagnostics.first(where: { $0.severity == .error }) {
            throw RemodelError(.invalidModel, error.message, location: error.location)
        }
        guard let bundle = result.bundle else {
            throw RemodelError(.invalidModel, "no model version could be read", path: path)
        }
        self = bundle
    }
}
