import Foundation
import Testing

@testable import Remodel

/// Composed equals step by step, always: random histories of 15–40 versions (``HistoryGenerator``), each
/// with a store of generated objects and what an app adds to a store, migrated in one pass and a pass per
/// step, give the same store byte for byte (schema, rows, export) and the same ledger of what the steps lost
/// (``MigrationReport/losses``: values dropped, and values a conversion turned into nil, from the conversions
/// ``HistoryGenerator`` appends), or the same refusal; and the app's declared references still reach the
/// objects they named.
///
/// `REMODEL_HISTORY_COUNT` sets how many seeds run (100 by default, about 20 CPU-seconds in a debug build;
/// `REMODEL_HISTORY_COUNT=2000 swift test --skip-build --filter ComposedHistoryTests` searches further),
/// `REMODEL_HISTORY_SEED` the first one, and `REMODEL_HISTORY_KEEP=<folder>` keeps each seed's bundle,
/// mapping files and first store there, to look at with `remodel`. A seed that fails is kept below as a
/// fixed case (``formerFailures(seed:)``), and its class as a test of its own.
struct ComposedHistoryTests {
    static let firstSeed: UInt64 =
        ProcessInfo.processInfo.environment["REMODEL_HISTORY_SEED"].flatMap { UInt64($0) } ?? 0x28_1000
    static let count = ProcessInfo.processInfo.environment["REMODEL_HISTORY_COUNT"].flatMap { Int($0) } ?? 100

    /// The seeds of one run, split into groups that run side by side.
    static let groups: [[UInt64]] = {
        let seeds = (0..<UInt64(count)).map { firstSeed + $0 }
        let width = 8
        return (0..<width).map { group in seeds.enumerated().filter { $0.offset % width == group }.map(\.element) }
            .filter { !$0.isEmpty }
    }()

    @Test(arguments: groups) func composedEqualsStepByStep(seeds: [UInt64]) async throws {
        for seed in seeds {
            do {
                try await check(seed: seed)
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    /// Seeds that failed: the first nine on main at 93d82cc with this generator (9 of the 96 from 0x280000) —
    /// a view, index or trigger that SQLite took for a constant, a foreign key left naming a table gone or
    /// misdirected by renumbered keys, a column name clash, a refusal named after another step; 2625565 with
    /// the first fixes (a foreign key to a table renumbered under its own name in another case). They mean
    /// these histories only as long as the generator draws the same way.
    @Test(
        arguments: [
            2_621_472, 2_621_480, 2_621_484, 2_621_486, 2_621_510, 2_621_511, 2_621_513, 2_621_517, 2_621_527,
            2_625_565,
        ] as [UInt64])
    func formerFailures(seed: UInt64) async throws {
        try await check(seed: seed)
    }

    /// Generates the history of `seed`, migrates it both ways and compares.
    func check(seed: UInt64, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
        var generator = HistoryGenerator(seed: seed)
        let history = try generator.history()
        let store = try HistoryStore(history, random: &generator.random)
        if let keep = ProcessInfo.processInfo.environment["REMODEL_HISTORY_KEEP"] {
            try store.keep(at: keep + "/\(seed)")
        }
        let composed = try await store.migrate(composed: true)
        let stepwise = try await store.migrate(composed: false)
        let context =
            "seed \(seed):\n" + history.changes.joined(separator: "\n") + "\napp: "
            + store.appSQL.joined(separator: ";\n")
        switch (composed, stepwise) {
        case (.migrated(let one), .migrated(let each)):
            if one != each {
                Issue.record("\(Self.firstDifference(one, each))\n\(context)", sourceLocation: sourceLocation)
            }
            do {
                let wrong = try HistoryStore.misdirectedReferences(store.folder.file("composed/store.sqlite"))
                #expect(wrong.isEmpty, "\(wrong)\n\(context)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(error)\n\(context)", sourceLocation: sourceLocation)
            }
        case (.refused(let one), .refused(let each)):
            #expect(one == each, "\(context)", sourceLocation: sourceLocation)
        default:
            Issue.record(
                "one road migrated, the other refused:\n\(Self.summary(composed))\n\(Self.summary(stepwise))\n\(context)",
                sourceLocation: sourceLocation)
        }
    }

    private static func summary(_ outcome: HistoryStore.Outcome) -> String {
        switch outcome {
        case .migrated: return "migrated"
        case .refused(let message): return "refused: \(message)"
        }
    }

    /// The first line where two dumps differ, with both lines.
    static func firstDifference(_ one: String, _ other: String) -> String {
        let (a, b) = (
            one.split(separator: "\n", omittingEmptySubsequences: false),
            other.split(separator: "\n", omittingEmptySubsequences: false)
        )
        var line = 0
        while line < min(a.count, b.count), a[line] == b[line] { line += 1 }
        return
            "composed and step by step differ at line \(line + 1):\n  composed: \(line < a.count ? a[line] : "<end>")\n  stepwise: \(line < b.count ? b[line] : "<end>")"
    }
}
