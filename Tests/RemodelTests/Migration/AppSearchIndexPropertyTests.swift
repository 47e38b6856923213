import Foundation
import Testing

@testable import Remodel

/// The app's full-text indexes stay true through any history (DESIGN.md, Migration 13): random histories of 3–8
/// versions (``HistoryGenerator``: entities removed, moved under parents and merged with new keys, attributes added,
/// removed and renamed, …) with a store whose app keeps an FTS4 or FTS5 index with external content over a string
/// attribute, migrated in one pass and a pass per step. Wherever both roads migrate, every word of the index's
/// content finds exactly the rows that hold it (a `LIKE` scan of the content table, split into words as the
/// tokenizer splits them) and SQLite's `integrity-check` of the index passes; where one road refuses (an index
/// over a table or column the history removes or renames), so does the other.
///
/// `REMODEL_SEARCH_COUNT` sets how many seeds run (16 by default), `REMODEL_SEARCH_SEED` the first.
struct AppSearchIndexPropertyTests {
    static let firstSeed: UInt64 =
        ProcessInfo.processInfo.environment["REMODEL_SEARCH_SEED"].flatMap { UInt64($0) } ?? 0x40_3000
    static let count = ProcessInfo.processInfo.environment["REMODEL_SEARCH_COUNT"].flatMap { Int($0) } ?? 16

    /// The seeds of one run, in groups that run side by side; how many seeds rebuilt an index in one road at least
    /// is counted over the whole run (the property is about those), and a run where none did fails: it proved nothing.
    @Test func everyWordFindsTheRowsThatHoldIt() async throws {
        let seeds = (0..<UInt64(Self.count)).map { Self.firstSeed + $0 }
        let width = 4
        let rebuilt = try await withThrowingTaskGroup(of: Int.self) { group in
            for offset in 0..<width {
                group.addTask {
                    var rebuilt = 0
                    for seed in seeds.enumerated().filter({ $0.offset % width == offset }).map(\.element) {
                        do {
                            if try await Self.check(seed: seed) { rebuilt += 1 }
                        } catch {
                            Issue.record("seed \(seed): \(error)")
                        }
                    }
                    return rebuilt
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(rebuilt > 0, "no seed from \(Self.firstSeed) rebuilt an index")
    }

    /// Migrates the history of `seed` both ways and checks each index. - Returns: Whether a step rebuilt one.
    private static func check(seed: UInt64) async throws -> Bool {
        var generator = HistoryGenerator(seed: seed)
        let history = try generator.history(versions: Int.random(in: 3...8, using: &generator.random))
        let store = try HistoryStore(history, random: &generator.random, searchIndex: true)
        let context =
            "seed \(seed):\n" + history.changes.joined(separator: "\n") + "\napp: "
            + store.appSQL.joined(separator: ";\n")
        let plan = try? Migrator(bundle: store.bundle, options: MigrationOptions(mappingsDirectory: store.mappings))
            .plan(storeAt: store.folder.file("template.sqlite"))
        let rebuilds = plan?.description.contains("Rebuilds the app's full-text index") ?? false
        let composed = try await store.migrate(composed: true)
        let stepwise = try await store.migrate(composed: false)
        switch (composed, stepwise) {
        case (.migrated, .migrated):
            for road in ["composed", "stepwise"] {
                let untrue = try HistoryStore.untrueSearchIndexes(store.folder.file("\(road)/store.sqlite"))
                #expect(untrue.isEmpty, "\(road): \(untrue)\n\(context)")
            }
        case (.refused(let one), .refused(let each)):
            #expect(one == each, "\(context)")
        default:
            Issue.record("one road migrated, the other refused:\n\(composed)\n\(stepwise)\n\(context)")
        }
        if case .migrated = composed { return rebuilds }
        return false
    }
}
