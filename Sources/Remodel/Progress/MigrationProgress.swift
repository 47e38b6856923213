/// Where a migration is, delivered as it goes.
///
/// `fraction` never decreases and ends at exactly 1.
public struct MigrationProgress: Sendable, Hashable, Codable {
    /// The phases of a migration step, in order.
    public enum Phase: String, Sendable, Hashable, Codable {
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
    /// The current step, 1-based (0 while planning).
    public var step: Int
    /// The number of steps.
    public var steps: Int
    /// The entity being worked on, if any.
    public var entity: String?
    /// Units done in this phase (objects in phase 1, relationships in phase 2, checks in phase 3).
    public var completed: Int
    /// Units in this phase.
    public var total: Int
    /// The whole migration's fraction done, 0…1.
    public var fraction: Double
    /// Seconds left, estimated from the time so far; `nil` until it can be estimated.
    public var estimatedSecondsRemaining: Double?

    /// Creates a progress value.
    public init(
        phase: Phase, step: Int, steps: Int, entity: String?, completed: Int, total: Int, fraction: Double,
        estimatedSecondsRemaining: Double?
    ) {
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
    /// `phase`, `step`, `steps`, `entity`, `completed`, `total`, `fraction`, `eta` (seconds or null).
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
        ]
    }
}
