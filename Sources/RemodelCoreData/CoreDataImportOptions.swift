/// How an import of a Core Data store treats what a real store may hold: which version wrote it, when
/// Remodel cannot tell, external data files that are missing, links to objects the store does not have.
///
/// For example:
/// ```swift
/// let options = CoreDataImportOptions(missingExternalData: .empty, danglingLinks: .drop)
/// let (store, outcome, imported) = try await Store.launch(
///     at: path, bundle: bundle, importingCoreDataFrom: backup, importOptions: options)
/// print(imported?.droppedLinks ?? [])
/// ```
public struct CoreDataImportOptions: Sendable, Hashable {
    /// The version that wrote the store, or `nil` to find it.
    public var version: String?
    /// The configuration whose entities the store holds, or `nil` to find it (the whole version or one of its
    /// configurations, docs/CORE-DATA-STORES.md, "Configurations").
    public var configuration: String?
    /// What to do with a value whose external data file is missing (refuse, by default).
    public var missingExternalData: CoreDataImport.MissingExternalData
    /// What to do with a link that names an object the store does not have (refuse, by default).
    public var danglingLinks: CoreDataImport.DanglingLinks

    /// Options with the defaults: the version found, every missing file and dangling link refused.
    public init(
        version: String? = nil, configuration: String? = nil,
        missingExternalData: CoreDataImport.MissingExternalData = .refuse,
        danglingLinks: CoreDataImport.DanglingLinks = .refuse
    ) {
        self.version = version
        self.configuration = configuration
        self.missingExternalData = missingExternalData
        self.danglingLinks = danglingLinks
    }
}
