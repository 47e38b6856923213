/// How a migration runs.
///
/// For example:
/// ```swift
/// var options = MigrationOptions()
/// options.mappingsDirectory = "Mappings"
/// options.keepBackup = true
/// ```
public struct MigrationOptions: Sendable {
    /// Where mapping files are (searched recursively); `nil` for inference only.
    public var mappingsDirectory: String?
    /// The version to migrate to; `nil` for the bundle's current version.
    public var targetVersion: String?
    /// Keep the original store beside the migrated one as `<store>.remodel-backup`.
    public var keepBackup: Bool
    /// Source keys per batch in phase 1: smaller batches give finer progress and cancellation.
    public var batchSize: Int
    /// How long to wait for another process's lock on the store before failing, in milliseconds; and how long
    /// another process migrating the same store may give no sign of life (at least 2 s) before this one stops
    /// waiting for it. A migration at work is waited for however long it takes (``MigrationProgress/Phase/waiting``).
    public var lockTimeoutMilliseconds: Int
    /// Checks of your own, run in phase 3 on every step's result.
    public var validations: [CustomValidation]
    /// Swift code that makes the objects of some destination entities (instead of their expressions).
    public var policies: [EntityPolicy] = []
    /// Swift code standing for the migration policy classes Xcode mapping models name, by class name
    /// (see ``register(_:forClass:)``).
    public var classPolicies: [String: EntityPolicy] = [:]
    /// Code run before and after each step, with SQL access to both stores.
    public var hooks = MigrationHooks()
    /// Whether consecutive steps run as one pass over the store: one copy, then every step in turn on
    /// that copy, each changing what its mapping changes and checked against its own version's rules
    /// (see docs/MIGRATION.md). `false` writes every version to a file of its own, which is slower; a
    /// step that runs Swift code (a policy), or every step when there are hooks, is a pass by itself.
    public var composesSteps = true
    /// Whether phase 3 checks every value and link of the store against the destination model, instead of
    /// what each step wrote or changed (tables rebuilt, columns made or filled, rules that changed): data
    /// carried byte for byte under unchanged rules is otherwise left to SQLite's check of the file.
    /// `remodel migrate --check-everything`.
    public var checksEverything = false
    /// SQLite's own check in phase 3: ``IntegrityCheck/writtenTables`` (the default: the schema and the
    /// tables the migration wrote, so a step costs what it changes), or ``IntegrityCheck/quick`` or
    /// ``IntegrityCheck/full`` of the whole store.
    public var integrityCheck = IntegrityCheck.writtenTables
    /// What to do with a store newer than the bundle (`remodel migrate --downgrade`): refuse it (the
    /// default), migrate it down when nothing is lost, or migrate it down all the same keeping a backup.
    public var downgrade = DowngradePolicy.refuse
    /// Test hook, not API: the free bytes the disk-space check sees, instead of the file system's.
    var availableBytes: Int64?
    /// Test hook, not API: caps every step store at this many pages (`PRAGMA max_page_count`),
    /// so tests can make the temporary store run out of space. `nil` (always, outside tests) costs nothing.
    var maximumPageCount: Int?

    /// Creates options with the defaults.
    public init(
        mappingsDirectory: String? = nil, targetVersion: String? = nil, keepBackup: Bool = false,
        batchSize: Int = 25_000,
        lockTimeoutMilliseconds: Int = 5_000, validations: [CustomValidation] = []
    ) {
        self.mappingsDirectory = mappingsDirectory
        self.targetVersion = targetVersion
        self.keepBackup = keepBackup
        self.batchSize = max(1, batchSize)
        self.lockTimeoutMilliseconds = lockTimeoutMilliseconds
        self.validations = validations
    }
}

/// What a finished migration did.
public struct MigrationReport: Sendable, Hashable {
    /// The store migrated.
    public var path: String
    /// The version it was at.
    public var sourceVersion: String
    /// The version it is at now.
    public var targetVersion: String
    /// The number of steps run (0 when the store was already at the target).
    public var steps: Int
    /// Objects the migration wrote: those in the tables it rebuilt or gave values (``writtenTables``). Tables
    /// carried byte for byte are not read, so that a migration costs what it changes; their objects are not counted.
    public var objects: Int
    /// The tables (one per entity hierarchy, named as in the target version) whose objects the migration wrote,
    /// which ``objects`` counts.
    public var writtenTables: [String] = []
    /// The tables (one per entity hierarchy) of the target version: those not in ``writtenTables`` were carried
    /// byte for byte.
    public var tableCount = 0
    /// Wall time, in seconds.
    public var seconds: Double
    /// The kept original, with ``MigrationOptions/keepBackup`` (beside the file the store path's
    /// symbolic links lead to).
    public var backupPath: String?
    /// What the steps dropped on purpose, as their mappings say, with the values each lost.
    public var losses: [DataLoss] = []
    /// Whether a program had stopped in the middle of a write to the store and left the unfinished
    /// transaction in its rollback journal (a *hot journal*): SQLite rolled it back when the migration
    /// locked the store, as it does whenever a store is opened for writing, before anything was read.
    public var rolledBackUnfinishedTransaction = false
    /// Whether the store was newer than the bundle and was migrated down (``MigrationOptions/downgrade``).
    public var isDowngrade = false
    /// The app's full-text indexes (FTS4, FTS5 with `content=`) the migration rebuilt, because it rewrote the rows of
    /// what they index.
    public var rebuiltIndexes: [RebuiltIndex] = []
    /// The app's triggers on tables the migration rewrote: set aside while it wrote, they did not fire, so what they
    /// keep up to date (a table of the app's) was not brought up to date.
    public var unfiredTriggers: [UnfiredTrigger] = []
}
