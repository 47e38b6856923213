/// A versioned data model: the versions of a `.xcdatamodeld` bundle in migration order.
///
/// Versions are ordered by natural sort of their names ("Library" < "Library 2"
/// < "Library 10"), unless the bundle holds a file `.remodel-version-order`
/// listing the version names one per line, oldest first.
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
/// print(bundle.versions.map(\.name)) // ["Library", "Library 2", "Library 3"]
/// print(bundle.currentVersion.name)  // "Library 3"
/// ```
public struct ModelBundle: Sendable, Hashable {
    /// The model's name: the bundle folder's name without `.xcdatamodeld`.
    public var name: String
    /// The path the bundle was read from.
    public var path: String
    /// Versions, oldest first.
    public var versions: [ModelVersion]
    /// The current version's name as `.xccurrentversion` gives it, if it does.
    public var declaredCurrentVersionName: String?

    /// Creates a bundle from versions already in migration order.
    public init(name: String, path: String = "<memory>", versions: [ModelVersion], currentVersionName: String? = nil) {
        self.name = name
        self.path = path
        self.versions = versions
        self.declaredCurrentVersionName = currentVersionName
    }

    /// The current version: the one `.xccurrentversion` names, else the last in order.
    ///
    /// A bundle always has at least one version (reading fails otherwise).
    public var currentVersion: ModelVersion {
        if let declared = declaredCurrentVersionName, let version = version(named: declared) {
            return version
        }
        return versions[versions.count - 1]
    }

    /// The version with that name.
    public func version(named name: String) -> ModelVersion? {
        versions.first { $0.name == name }
    }

    /// The version named `name`, or an error with `code` that lists the bundle's versions.
    func requireVersion(named name: String, code: RemodelError.Code) throws(RemodelError) -> ModelVersion {
        guard let version = version(named: name) else { throw unknownVersion(name, code: code) }
        return version
    }

    /// The error for a version the bundle does not have: it lists those it has.
    func unknownVersion(_ name: String, code: RemodelError.Code) -> RemodelError {
        let names = versions.map { "\"\($0.name)\"" }.joined(separator: ", ")
        return RemodelError(code, "model \"\(self.name)\" has no version \"\(name)\"; its versions are \(names)", path: path)
    }

    /// The position of a version in migration order.
    public func index(ofVersion name: String) -> Int? {
        versions.firstIndex { $0.name == name }
    }
}
