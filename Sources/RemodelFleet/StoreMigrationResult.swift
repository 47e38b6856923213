public import Foundation
public import Remodel

/// What happened to one store of a fleet migrated with ``Remodel/Migrator/migrate(stores:jobs:options:progress:)``.
///
/// For example:
/// ```swift
/// for await result in migrator.migrate(stores: paths, jobs: 4) {
///     switch result.outcome {
///     case .migrated, .current: continue
///     case .transient: retryLater.append(result.path)
///     case .refused, .skipped: print(result.path, result.reason?.description ?? "", result.error?.description ?? "")
///     }
/// }
/// ```
public struct StoreMigrationResult: Sendable {
    /// What happened, in the words of the report.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The store was migrated to the target version.
        case migrated
        /// The store was already at the target: nothing was done.
        case current
        /// The store was left as it was for a reason a retry will not fix: its data, the model or
        /// mapping files, a newer store, not a store at all. ``StoreMigrationResult/reason`` says which.
        case refused
        /// The store was left as it was for a reason that may pass: locked or busy, disk full, an I/O
        /// error, cancelled. Trying again may work.
        case transient
        /// The store was not started: the fleet stopped first (``FleetOptions/maxFailures``, a failed
        /// canary, cancellation).
        case skipped

        /// Whether the store is at the target: migrated now or already there.
        public var isDone: Bool { self == .migrated || self == .current }
    }

    /// Why a store was refused, failed transiently or skipped: a short code, stable across versions,
    /// that programs can match (see docs/FLEET.md for the list).
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The code as the report writes it, e.g. `newer-store`.
        public let code: String
        /// Whether trying again may work.
        public let isTransient: Bool

        init(_ code: String, transient: Bool = false) {
            self.code = code
            self.isTransient = transient
        }

        /// The code.
        public var description: String { code }

        /// The store is at a version the model does not have, or one after the target: written by a newer app.
        public static let newerStore = Reason("newer-store")
        /// The store is newer and a lossless downgrade (``/Remodel/DowngradePolicy/lossless``) would lose stored
        /// values.
        public static let downgradeLosesData = Reason("downgrade-loses-data")
        /// The store's recorded version was edited after the store was written.
        public static let modifiedVersion = Reason("modified-version")
        /// The store's schema no longer matches the version it records (a model table or column dropped or
        /// renamed by hand or by another tool).
        public static let schemaDrift = Reason("schema-drift")
        /// A store of another model.
        public static let otherModel = Reason("other-model")
        /// An SQLite database without Remodel's metadata.
        public static let notAStore = Reason("not-a-store")
        /// Not a usable SQLite database: empty, garbage, truncated or damaged.
        public static let damaged = Reason("damaged")
        /// No file at the path.
        public static let missing = Reason("missing")
        /// A step cannot be inferred and has no mapping file.
        public static let notPlannable = Reason("not-plannable")
        /// A mapping file is wrong.
        public static let invalidMapping = Reason("invalid-mapping")
        /// A model file is wrong.
        public static let invalidModel = Reason("invalid-model")
        /// The migrated data breaks the model's rules (required, ranges, uniqueness, references, custom checks).
        public static let data = Reason("data")
        /// The store or its folder cannot be written (permissions, read-only file system).
        public static let notWritable = Reason("not-writable")
        /// The file is not a store this migrator can take, for a reason not listed above.
        public static let incompatible = Reason("incompatible")
        /// Any other failure: its message says what happened.
        public static let failed = Reason("failed")

        /// Another process holds the store's lock.
        public static let locked = Reason("locked", transient: true)
        /// SQLite found the database busy or locked.
        public static let busy = Reason("busy", transient: true)
        /// The disk (or a quota) is full.
        public static let diskFull = Reason("disk-full", transient: true)
        /// SQLite ran out of memory.
        public static let memory = Reason("memory", transient: true)
        /// Reading or writing a file failed.
        public static let io = Reason("io", transient: true)
        /// The migration was cancelled (a migrated store is left as it was; a skipped one was never started).
        public static let cancelled = Reason("cancelled", transient: true)

        /// The fleet stopped after ``FleetOptions/maxFailures`` failures: the store was not started.
        public static let maxFailures = Reason("max-failures", transient: true)
        /// A canary store failed: the store was not started.
        public static let canaryFailed = Reason("canary-failed", transient: true)
    }

    /// The store's path, as given.
    public var path: String
    /// What happened.
    public var outcome: Outcome
    /// Why, for every outcome but ``Outcome/migrated`` and ``Outcome/current``.
    public var reason: Reason?
    /// The version the store was at, when known.
    public var sourceVersion: String?
    /// The version it is at now (done), or the one it was to be migrated to.
    public var targetVersion: String
    /// Migration steps run (0 unless migrated).
    public var steps: Int
    /// Objects in the store after the migration, when it is done.
    public var objects: Int?
    /// Wall time spent on the store, in seconds.
    public var seconds: Double
    /// When the store was finished.
    public var date: Date
    /// What went wrong, for every outcome but ``Outcome/migrated``, ``Outcome/current`` and ``Outcome/skipped``.
    public var error: RemodelError?
    /// The migration's report, for ``Outcome/migrated`` and ``Outcome/current``.
    public var report: MigrationReport?
}

extension StoreMigrationResult {
    /// The result as one line of JSON, the form of `remodel migrate --report FILE`: `path`, `outcome`,
    /// `reason`, `from`, `to`, `steps`, `objects`, `seconds`, `at`, `message` (absent values are `null`), `downgrade`
    /// (whether the store was newer and was migrated down), `losses` (the values the migration lost, each with its
    /// step, entity, property, count and cause: dropped by the mapping, or turned into nil by an expression, shown
    /// with an example; empty when nothing was lost).
    public var jsonLine: String { JSONDocument.object(jsonMembers).compact() }

    /// The result as a `remodel migrate --progress json` event: `event` (`"store"`), then the fields of ``jsonLine``.
    public var eventJSONLine: String { JSONDocument.object([("event", .string("store"))] + jsonMembers).compact() }

    private var jsonMembers: [(String, JSONDocument)] {
        [
            ("path", .string(path)),
            ("outcome", .string(outcome.rawValue)),
            ("reason", reason.map { .string($0.code) } ?? .null),
            ("from", sourceVersion.map(JSONDocument.string) ?? .null),
            ("to", .string(targetVersion)),
            ("steps", .int(steps)),
            ("objects", objects.map(JSONDocument.int) ?? .null),
            ("seconds", .number((seconds * 1000).rounded() / 1000)),
            ("at", ISODate.format(date.timeIntervalSince1970).map(JSONDocument.string) ?? .null),
            ("message", error.map { .string($0.description) } ?? .null),
            ("downgrade", .bool(report?.isDowngrade ?? false)),
            ("losses", .array((report?.losses ?? []).filter { $0.count != 0 }.map(\.json))),
        ]
    }
}
