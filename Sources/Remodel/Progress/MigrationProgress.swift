/// Where a migration is, delivered as it goes.
///
/// `fraction` never decreases and ends at exactly 1. A migration walks the plan's steps (one per pair
/// of versions); consecutive steps may run as one pass over the store (see
/// ``MigrationOptions/composesSteps``), so ``step`` and ``steps`` count the plan's steps and ``pass``
/// and ``passes`` the passes.
///
/// For example:
/// ```swift
/// try await migrator.migrate(storeAt: "library.sqlite") { progress in
///     // step 2 of 3, pass 1 of 1: relationships 40%
///     print("step \(progress.step) of \(progress.steps), pass \(progress.pass) of \(progress.passes):",
///           progress.phase, Int(progress.fraction * 100))
/// }
/// ```
public struct MigrationProgress: Sendable, Hashable, Codable {
    /// The phases of a migration step, in order.
    public enum Phase: String, Sendable, Hashable, Codable, CaseIterable {
        /// Waiting for another process's migration of the same store (an app and its extension launching
        /// together, two workers, a fleet given the store twice): one migrates, the others wait, then find
        /// the store current. ``completed`` of ``total`` (10,000) is how far that migration is.
        case waiting
        /// Reading the store and planning.
        case planning
        /// Phase 1: creating objects and computing their attributes.
        case instances
        /// Phase 2: rebuilding relationships.
        case relationships
        /// Building the indexes of the tables the step rebuilt (the model's fetch indexes and uniqueness
        /// constraints): the end of phase 2, reported on its own since it can take as long as the links.
        case indexes
        /// Phase 3: checking the migrated data.
        case validation
        /// Writing metadata and replacing the original store.
        case replace
        /// Done.
        case finished
    }

    /// The current phase.
    public var phase: Phase
    /// The step of the plan being worked on, 1-based, as ``MigrationPlan/steps`` numbers them: 0 while
    /// planning, ``steps`` once finished.
    public var step: Int
    /// The number of steps in the plan (0 until planning is done; 0 too for a store already current).
    public var steps: Int
    /// The pass over the store, 1-based (0 while planning): a pass copies the store once and runs
    /// ``passSteps`` on the copy, one after the other.
    public var pass: Int
    /// The number of passes (0 until planning is done).
    public var passes: Int
    /// The steps of the plan (1-based) the current pass runs: `1...2` when steps 1 and 2 run as one
    /// pass; `nil` while planning.
    public var passSteps: ClosedRange<Int>?
    /// The entity being worked on, if any.
    public var entity: String?
    /// Units done in this phase: source objects in phase 1; in the other phases, the rows of the
    /// tables each relationship, index or check reads, so that the count moves with the work done.
    public var completed: Int
    /// Units in this phase; it stays the same from the phase's first value to its last.
    public var total: Int
    /// The whole migration's fraction done, 0…1, rounded down to 4 decimals. Each phase weighs its
    /// measured share of a step, so the fraction moves with the time spent.
    public var fraction: Double
    /// Seconds left, estimated from the rate of the work so far (planning left out); `nil` until that rate
    /// is known: a second of work, and 5% of the migration done.
    public var estimatedSecondsRemaining: Double?

    /// Creates a progress value.
    ///
    /// For example:
    /// ```swift
    /// let preview = MigrationProgress(
    ///     phase: .relationships, step: 2, steps: 3, pass: 1, passes: 1, passSteps: 1...3, entity: "Person",
    ///     completed: 30_000, total: 80_000, fraction: 0.55, estimatedSecondsRemaining: 2)
    /// ```
    /// - Parameters:
    ///   - phase: The phase.
    ///   - step: The plan's step being worked on (1-based; 0 while planning).
    ///   - steps: The plan's number of steps.
    ///   - pass: The pass over the store (1-based; 0 while planning).
    ///   - passes: The number of passes.
    ///   - passSteps: The plan's steps the pass runs.
    ///   - entity: The entity being worked on.
    ///   - completed: Units of the phase done.
    ///   - total: Units of the phase.
    ///   - fraction: The whole migration's fraction done, 0…1.
    ///   - estimatedSecondsRemaining: Seconds left, or `nil` when not known yet.
    public init(
        phase: Phase, step: Int, steps: Int, pass: Int, passes: Int, passSteps: ClosedRange<Int>?, entity: String?,
        completed: Int, total: Int, fraction: Double, estimatedSecondsRemaining: Double?
    ) {
        self.phase = phase
        self.step = step
        self.steps = steps
        self.pass = pass
        self.passes = passes
        self.passSteps = passSteps
        self.entity = entity
        self.completed = completed
        self.total = total
        self.fraction = fraction
        self.estimatedSecondsRemaining = estimatedSecondsRemaining
    }
}

extension MigrationProgress {
    /// The progress as one line of JSON, as `remodel migrate --progress json` writes it:
    /// `phase`, `step` and `steps` (the plan's), `pass` and `passes`, `passSteps` (`[first, last]` or
    /// null), `entity`, `completed`, `total`, `fraction` (at most 4 decimals) and `eta` (seconds, one
    /// decimal, or null).
    ///
    /// For example:
    /// ```swift
    /// try await migrator.migrate(storeAt: "library.sqlite") { progress in print(progress.jsonLine) }
    /// // {"phase":"instances","step":1,"steps":2,"pass":1,"passes":1,"passSteps":[1,2],"entity":"Person",…}
    /// ```
    public var jsonLine: String {
        JSONDocument.object(jsonMembers).compact()
    }

    /// The progress of one store of a fleet as one line of JSON, as `remodel migrate --progress json`
    /// writes it for a fleet: `event` (`"progress"`) and `store` (the path), then the fields of ``jsonLine``.
    ///
    /// For example:
    /// ```swift
    /// let results = migrator.migrate(stores: paths, jobs: 4) { store, progress in
    ///     print(progress.jsonLine(store: store))
    /// }
    /// ```
    /// - Parameter store: The store's path, as given.
    /// - Returns: One line of JSON, without a newline.
    public func jsonLine(store: String) -> String {
        JSONDocument.object([("event", .string("progress")), ("store", .string(store))] + jsonMembers).compact()
    }

    private var jsonMembers: [(String, JSONDocument)] {
        [
            ("phase", .string(phase.rawValue)),
            ("step", .int(step)),
            ("steps", .int(steps)),
            ("pass", .int(pass)),
            ("passes", .int(passes)),
            ("passSteps", passSteps.map { .array([.int($0.lowerBound), .int($0.upperBound)]) } ?? .null),
            ("entity", entity.map(JSONDocument.string) ?? .null),
            ("completed", .int(completed)),
            ("total", .int(total)),
            ("fraction", .number(fraction)),
            ("eta", estimatedSecondsRemaining.map { .number(($0 * 10).rounded() / 10) } ?? .null),
        ]
    }
}
