/// Where a migration is, delivered as it goes.
///
/// `fraction` never decreases and ends at exactly 1.
public struct MigrationProgress: Sendable, Hashable, Codable {
    /// The phases of a migration step, in order.
    public enum Phase: String, Sendable, Hashable, Codable {
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
        /// Phase 3: checking the migrated data.
        case validation
        /// Writing metadata and replacing the original store.
        case replace
        /// Done.
        case finished
    }

    /// The current phase.
    public var phase: Phase
    /// The current pass over the store, 1-based (0 while planning). Consecutive steps of the plan
    /// may run as one pass (see ``MigrationOptions/composesSteps``): ``planSteps`` says which.
    public var step: Int
    /// The number of passes (0 until planning is done).
    public var steps: Int
    /// The entity being worked on, if any.
    public var entity: String?
    /// Units done in this phase: source objects in phase 1; in phases 2 and 3, the rows of the
    /// tables each relationship or check reads, so that the count moves with the work done.
    public var completed: Int
    /// Units in this phase; it stays the same from the phase's first value to its last.
    public var total: Int
    /// The whole migration's fraction done, 0…1, rounded down to 4 decimals. Each phase weighs its
    /// measured share of a pass, so the fraction moves with the time spent.
    public var fraction: Double
    /// Seconds left, estimated from the time so far; `nil` until it can be estimated.
    public var estimatedSecondsRemaining: Double?
    /// The steps of the plan (1-based, as ``MigrationPlan/steps`` numbers them) that the current pass
    /// covers: `1...2` when steps 1 and 2 run as one pass; `nil` while planning.
    public var planSteps: ClosedRange<Int>?
    /// The step of the plan (1-based, within ``planSteps``) whose phases are reported: a pass runs its
    /// steps one after the other, each through the phases in order; `nil` while planning and at the end.
    public var planStep: Int?

    /// Creates a progress value.
    public init(
        phase: Phase, step: Int, steps: Int, entity: String?, completed: Int, total: Int, fraction: Double,
        estimatedSecondsRemaining: Double?, planSteps: ClosedRange<Int>? = nil, planStep: Int? = nil
    ) {
        self.planSteps = planSteps
        self.planStep = planStep
        self.phase = phase
        self.step = step
        self.steps = steps
        self.entity = entity
        self.completed = completed
        self.total = total
        self.fraction = fraction
        self.estimatedSecondsRemaining = estimatedSecondsRemaining
    }
}

extension MigrationProgress {
    /// The progress as one line of JSON, as `remodel migrate --progress json` writes it:
    /// `phase`, `step`, `steps`, `entity`, `completed`, `total`, `fraction` (at most 4 decimals),
    /// `eta` (seconds, one decimal, or null) and `planSteps` (`[first, last]` or null).
    public var jsonLine: String {
        JSONDocument.object(jsonMembers).compact()
    }

    /// The progress of one store of a fleet as one line of JSON, as `remodel migrate --progress json`
    /// writes it for a fleet: `event` (`"progress"`) and `store` (the path), then the fields of ``jsonLine``.
    public func jsonLine(store: String) -> String {
        JSONDocument.object([("event", .string("progress")), ("store", .string(store))] + jsonMembers).compact()
    }

    private var jsonMembers: [(String, JSONDocument)] {
        [
            ("phase", .string(phase.rawValue)),
            ("step", .int(step)),
            ("steps", .int(steps)),
            ("entity", entity.map(JSONDocument.string) ?? .null),
            ("completed", .int(completed)),
            ("total", .int(total)),
            ("fraction", .number(fraction)),
            ("eta", estimatedSecondsRemaining.map { .number(($0 * 10).rounded() / 10) } ?? .null),
            ("planSteps", planSteps.map { .array([.int($0.lowerBound), .int($0.upperBound)]) } ?? .null),
            ("planStep", planStep.map(JSONDocument.int) ?? .null),
        ]
    }
}
