public import Remodel

/// What happened when one version's store was migrated to the head, and whether the test expected it.
public struct MigrationTestResult: Sendable {
    /// How the migration ended.
    public enum Outcome: Sendable, Hashable {
        /// Migrated, and the store holds what the plan says (and the caller's assertions passed).
        case migrated
        /// Refused by the migration's validation, with the reason; the store was left as it was.
        case refused(String)
        /// Not planned: a step needs a mapping file; the reason says which entity and property.
        case needsMapping(String)
        /// Something went wrong: the data did not import, the migration failed otherwise, or the migrated
        /// store differs from the plan (see ``MigrationTestResult/failures``).
        case failed(String)
    }

    /// The case.
    public var testCase: MigrationTestCase
    /// How the migration ended.
    public var outcome: Outcome
    /// Whether that is what the case expected.
    public var isExpected: Bool
    /// Differences from the plan and failed assertions, each naming entity, property and object.
    public var failures: [MigrationCheckFailure]
    /// Rules of the model the seed generator could not meet (its data then has fewer objects or empty values).
    public var seedProblems: [String]
    /// Objects in the store before the migration.
    public var objectsBefore: Int
    /// Objects after it (the same as before when it was refused or not planned).
    public var objectsAfter: Int
    /// Wall time of the migration, in seconds.
    public var seconds: Double
    /// What the migration lost, as its report says (``/Remodel/MigrationReport/losses``): values its mappings drop, and
    /// values a conversion or expression turned into nil. Empty unless it migrated.
    public var losses: [DataLoss] = []

    /// The values a conversion, an expression or a policy turned into nil: a case that has any migrated, and is
    /// counted apart from `ok`.
    public var lostValues: [DataLoss] { losses.filter { $0.becameNil && $0.count != 0 } }

    /// `ok`, `ok with losses (what)`, `refused (why)`, `needs a mapping (why)` or `failed (why)`.
    public var summary: String {
        switch outcome {
        case .migrated where !lostValues.isEmpty:
            return "ok with losses (\(lostValues.map(\.description).joined(separator: "; ")))"
        case .migrated: return "ok"
        case .refused(let reason): return "refused (\(reason))"
        case .needsMapping(let reason): return "needs a mapping (\(reason))"
        case .failed(let reason): return "failed (\(reason))"
        }
    }
}

/// The error a ``MigrationTestCase`` throws when the result is not the one expected: it names the version,
/// and each failure its entity, property and object.
public struct MigrationTestFailure: Error, Sendable, CustomStringConvertible {
    /// The result.
    public var result: MigrationTestResult

    public var description: String {
        let testCase = result.testCase
        var lines = ["\(testCase): expected it \(testCase.expectation); \(result.summary)"]
        lines += result.failures.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
