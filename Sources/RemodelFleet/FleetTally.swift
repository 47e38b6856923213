public import Foundation
import Remodel

/// A running count of a fleet's results: how many stores ended how, the objects migrated per second,
/// the time left.
///
/// For example:
/// ```swift
/// var tally = FleetTally(total: paths.count)
/// for await result in migrator.migrate(stores: paths) {
///     tally.add(result)
///     print("\(tally.finished)/\(tally.total) stores, \(tally.failures) failed")
/// }
/// ```
public struct FleetTally: Sendable {
    /// The stores in the fleet.
    public let total: Int
    /// When the fleet started.
    public let started: Date
    /// Stores finished so far, by outcome.
    public private(set) var counts: [StoreMigrationResult.Outcome: Int] = [:]
    /// Objects the migrations so far wrote (``/Remodel/MigrationReport/objects``; stores already current count none).
    public private(set) var objectsMigrated = 0
    /// Stores among those migrated that were newer and went down (``/Remodel/MigrationReport/isDowngrade``).
    public private(set) var downgraded = 0

    /// Creates an empty tally.
    public init(total: Int, started: Date = Date()) {
        self.total = total
        self.started = started
    }

    /// Counts one store's result.
    public mutating func add(_ result: StoreMigrationResult) {
        counts[result.outcome, default: 0] += 1
        if result.outcome == .migrated { objectsMigrated += result.objects ?? 0 }
        if result.outcome == .migrated, result.report?.isDowngrade == true { downgraded += 1 }
    }

    /// Stores with a result so far.
    public var finished: Int { counts.values.reduce(0, +) }

    /// Stores refused or failed transiently so far.
    public var failures: Int { self[.refused] + self[.transient] }

    /// The number of stores with this outcome so far.
    public subscript(outcome: StoreMigrationResult.Outcome) -> Int { counts[outcome] ?? 0 }

    /// Objects migrated per second of the fleet's wall time so far.
    public func objectsPerSecond(at now: Date = Date()) -> Double {
        let elapsed = now.timeIntervalSince(started)
        return elapsed > 0 ? Double(objectsMigrated) / elapsed : 0
    }

    /// Seconds left at the pace of the stores finished so far; `nil` before the first.
    public func estimatedSecondsRemaining(at now: Date = Date()) -> Double? {
        guard finished > 0 else { return nil }
        return now.timeIntervalSince(started) * Double(total - finished) / Double(finished)
    }

    /// The tally as one line of JSON, as `remodel migrate --progress json` writes it for the fleet:
    /// `event` (`"fleet"`), `finished`, `total`, a count per outcome, `objects`, `objectsPerSecond`,
    /// `seconds` and `eta`.
    public func jsonLine(at now: Date = Date()) -> String {
        var members: [(String, JSONDocument)] = [
            ("event", .string("fleet")), ("finished", .int(finished)), ("total", .int(total)),
        ]
        members += StoreMigrationResult.Outcome.allCases.map { ($0.rawValue, .int(self[$0])) }
        members += [
            ("objects", .int(objectsMigrated)),
            ("objectsPerSecond", .number(objectsPerSecond(at: now).rounded())),
            ("seconds", .number((now.timeIntervalSince(started) * 1000).rounded() / 1000)),
            ("eta", estimatedSecondsRemaining(at: now).map { .number(($0 * 10).rounded() / 10) } ?? .null),
        ]
        return JSONDocument.object(members).compact()
    }
}
