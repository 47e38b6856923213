internal import Foundation

/// A versioned data model: the versions of a `.xcdatamodeld` bundle in migration order.
///
/// Versions are ordered by natural sort of their names ("Library" < "Library 2"
/// < "Library 10"), unless the bundle holds a file `.remodel-version-order`
/// listing the version names one per line, oldest first.
///
/// A bundle read with ``init(contentsOf:)-(String)`` reads a version's file only when it is
/// first asked for: opening a store at the current version reads that version and no
/// other, however many versions the bundle has.
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
/// print(bundle.versionNames)        // ["Library", "Library 2", "Library 3"]
/// print(bundle.currentVersion.name) // "Library 3"
/// ```
public struct ModelBundle: Sendable, Hashable {
    /// The model's name: the bundle folder's name without `.xcdatamodeld`.
    public var name: String
    /// The path the bundle was read from.
    public var path: String
    /// Version names, oldest first: the migration order.
    public let versionNames: [String]
    /// The current version's name as `.xccurrentversion` gives it, if it does.
    public var declaredCurrentVersionName: String?
    /// Names versions had before their folders were renamed, each with the version's name now
    /// (declared in `.remodel-version-order` as `Name <- Former name`). A store recording a former
    /// name is at the renamed version.
    public let formerVersionNames: [String: String]
    /// The configuration whose entities every version holds (``restricted(toConfiguration:)``), `nil` for every
    /// entity.
    public internal(set) var configurationName: String?

    private let loader: VersionLoader

    /// The name of the optional file in a bundle that lists version names, oldest first, one a line.
    public static let versionOrderFileName = ".remodel-version-order"

    /// Creates a bundle from versions already in migration order.
    public init(
        name: String, path: String = "<memory>", versions: [ModelVersion], currentVersionName: String? = nil,
        formerVersionNames: [String: String] = [:]
    ) {
        self.name = name
        self.path = path
        self.versionNames = versions.map(\.name)
        self.declaredCurrentVersionName = currentVersionName
        self.formerVersionNames = formerVersionNames
        self.loader = VersionLoader(loaded: versions)
    }

    /// Creates a bundle whose versions are read on first use by `read`.
    init(
        name: String, path: String, versionNames: [String], currentVersionName: String?,
        formerVersionNames: [String: String],
        read: @escaping @Sendable (String) -> Result<ModelVersion, RemodelError>
    ) {
        self.name = name
        self.path = path
        self.versionNames = versionNames
        self.declaredCurrentVersionName = currentVersionName
        self.formerVersionNames = formerVersionNames
        self.loader = VersionLoader(read: read)
    }

    /// Every version, oldest first. Reads every version not read yet; a version that cannot be read is left out
    /// (``loadVersion(named:)`` says why).
    public var versions: [ModelVersion] {
        versionNames.compactMap { try? loader.version(named: $0) }
    }

    /// The name of the current version: the one `.xccurrentversion` names, else the last in order.
    public var currentVersionName: String {
        if let declared = declaredCurrentVersionName, versionNames.contains(declared) { return declared }
        return versionNames[versionNames.count - 1]
    }

    /// The current version: the one `.xccurrentversion` names, else the last in order.
    ///
    /// A bundle always has at least one version, and reading it checks that the current one can be read.
    public var currentVersion: ModelVersion {
        if let version = try? loader.version(named: currentVersionName) { return version }
        return ModelVersion(name: currentVersionName, path: path, entities: [])
    }

    /// The version with that name, read if needed; `nil` when the bundle has no such version or it cannot be read.
    public func version(named name: String) -> ModelVersion? {
        guard versionNames.contains(name) else { return nil }
        return try? loader.version(named: name)
    }

    /// The version with that name, read if needed.
    /// - Throws: ``RemodelError`` with code ``RemodelError/Code/invalidModel`` when the bundle has no such
    ///   version or its file cannot be read, naming the file and position.
    public func loadVersion(named name: String) throws(RemodelError) -> ModelVersion {
        guard versionNames.contains(name) else { throw unknownVersion(name, code: .invalidModel) }
        return try loader.version(named: name)
    }

    /// The version named `name`, or an error with `code` that lists the bundle's versions.
    package func requireVersion(named name: String, code: RemodelError.Code) throws(RemodelError) -> ModelVersion {
        guard versionNames.contains(name) else { throw unknownVersion(name, code: code) }
        return try loadVersion(named: name)
    }

    /// The error for a version the bundle does not have: it lists those it has.
    package func unknownVersion(_ name: String, code: RemodelError.Code) -> RemodelError {
        let names = versionNames.map { "\"\($0)\"" }.joined(separator: ", ")
        return RemodelError(
            code, "model \"\(self.name)\" has no version \"\(name)\"; its versions are \(names)", path: path)
    }

    /// The position of a version in migration order.
    public func index(ofVersion name: String) -> Int? {
        versionNames.firstIndex(of: name)
    }

    /// The version a recorded name stands for now: the name itself, or the version it was renamed to.
    public func versionName(recordedAs name: String) -> String? {
        if versionNames.contains(name) { return name }
        return formerVersionNames[name].flatMap { versionNames.contains($0) ? $0 : nil }
    }

    /// The versions read so far (for tests of what launch reads).
    var loadedVersionNames: Set<String> { loader.loadedNames }

    /// What `check` finds in the version `name`, worked out once per bundle read (a fleet asks for each store).
    func checked(_ name: String, _ check: () -> [Diagnostic]) -> [Diagnostic] {
        loader.checked(name, check)
    }

    public static func == (lhs: ModelBundle, rhs: ModelBundle) -> Bool {
        lhs.name == rhs.name && lhs.path == rhs.path && lhs.versionNames == rhs.versionNames
            && lhs.declaredCurrentVersionName == rhs.declaredCurrentVersionName
            && lhs.formerVersionNames == rhs.formerVersionNames && lhs.configurationName == rhs.configurationName
            && (lhs.loader === rhs.loader || lhs.path != "<memory>" || lhs.versions == rhs.versions)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(path)
        hasher.combine(versionNames)
        hasher.combine(configurationName)
    }
}

/// Reads a bundle's versions once each, on first use, from any thread.
private final class VersionLoader: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [String: Result<ModelVersion, RemodelError>] = [:]
    private let read: (@Sendable (String) -> Result<ModelVersion, RemodelError>)?

    init(loaded versions: [ModelVersion]) {
        for version in versions where results[version.name] == nil { results[version.name] = .success(version) }
        read = nil
    }

    init(read: @escaping @Sendable (String) -> Result<ModelVersion, RemodelError>) {
        self.read = read
    }

    func version(named name: String) throws(RemodelError) -> ModelVersion {
        lock.lock()
        if let known = results[name] {
            lock.unlock()
            return try known.get()
        }
        lock.unlock()
        let result = read?(name) ?? .failure(RemodelError(.invalidModel, "the model has no version '\(name)'"))
        lock.lock()
        let stored = results[name] ?? result
        results[name] = stored
        lock.unlock()
        return try stored.get()
    }

    /// The problems found in a version, by name; guarded by `lock`.
    private var problems: [String: [Diagnostic]] = [:]

    func checked(_ name: String, _ check: () -> [Diagnostic]) -> [Diagnostic] {
        if let known = lock.locked({ problems[name] }) { return known }
        let found = check()
        return lock.locked {
            if let known = problems[name] { return known }
            problems[name] = found
            return found
        }
    }

    var loadedNames: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return Set(results.compactMap { key, value in (try? value.get()) == nil ? nil : key })
    }
}
