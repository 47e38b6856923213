import Foundation
import Remodel

/// How a fleet of stores is migrated: when to stop starting new stores.
///
/// For example:
/// ```swift
/// // Five stores first, alone; then the rest, stopping after ten failures.
/// let fleet = migrator.migrate(stores: paths, jobs: 4, options: FleetOptions(maxFailures: 10, canary: 5))
/// ```
public struct FleetOptions: Sendable, Hashable {
    /// Stop starting new stores once this many have failed (refused or transient); the stores
    /// already running finish. `nil`: never stop.
    public var maxFailures: Int?
    /// Migrate the first `canary` stores before any other, and start no other if one of them fails.
    public var canary: Int

    /// Creates fleet options.
    public init(maxFailures: Int? = nil, canary: Int = 0) {
        self.maxFailures = maxFailures.map { max(1, $0) }
        self.canary = max(0, canary)
    }

    /// The default number of stores migrated at once: the number of cores.
    public static var defaultJobs: Int { ProcessInfo.processInfo.activeProcessorCount }
}
