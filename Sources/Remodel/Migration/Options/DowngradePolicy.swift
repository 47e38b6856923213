/// What a migration does with a store newer than the build: one whose recorded version the bundle
/// lacks (or that comes after its current version), written by a newer app or a deploy since rolled back.
///
/// For example:
/// ```swift
/// var options = MigrationOptions()
/// options.downgrade = .lossless
/// let (store, outcome) = try await Store.launch(at: path, bundle: bundle, options: options)
/// ```
public enum DowngradePolicy: String, Sendable, Hashable, CaseIterable {
    /// Refuse the store untouched (``/RemodelModel/RemodelError/Code/newerStore``): the default.
    case refuse
    /// Migrate the store down to the bundle's current version (or ``MigrationOptions/targetVersion``), with
    /// the mapping inferred from the model the store carries (``CarriedModel``), only when no stored value
    /// would be lost: what the older version lacks is empty in this store, and the older version's rules
    /// hold (phase 3 checks them). Otherwise refuse untouched (``RemodelModel/RemodelError/Code/downgradeLosesData``),
    /// naming each entity and property that would lose values, with counts.
    case lossless
    /// Migrate the store down all the same, dropping what the older version cannot hold, and keep the
    /// original as the backup (as ``MigrationOptions/keepBackup`` does); the report lists what was dropped.
    case allowLoss = "allow-loss"
}

extension RemodelError.Code {
    /// A lossless downgrade (``DowngradePolicy/lossless``) would lose stored values: the store was left
    /// untouched. The message names each entity and property, with counts.
    public static let downgradeLosesData = RemodelError.Code("downgradeLosesData")
    /// `remodel rollback` (``Store/rollback(at:lockTimeoutMilliseconds:)``) cannot put the backup back: there is
    /// none, it has no record, or the store was written since the migration that made it. Nothing was changed.
    public static let rollbackRefused = RemodelError.Code("rollbackRefused")
}
