import Foundation
import Testing

@testable import Remodel

/// What a migration reads of the store it migrates (issue 44): a table of one entity that it rebuilds is read
/// whole once before phase 1 — the search for rows no entity can place, made just after the copy, counts what
/// the step drops of it and its rows for phase 1's progress on the way — and read again only by phase 1, so a
/// store larger than the file cache is not read from storage three times more.
@Suite struct SourceReadsTests {
    /// Per pass, the total of the first `instances` report: phase 1's rows to copy.
    private final class Totals: @unchecked Sendable {
        private let lock = NSLock()
        private var byPass: [Int: Int] = [:]

        func saw(_ progress: MigrationProgress) {
            guard progress.phase == .instances else { return }
            lock.locked { if byPass[progress.pass] == nil { byPass[progress.pass] = progress.total } }
        }

        var values: [Int: Int] { lock.locked { byPass } }
    }

    /// The library's first step rebuilds Person (one entity, no `_entity` index) and drops its `email`: the
    /// census that searches it counts the e-mails and the rows, and the step asks neither again. Measured against
    /// the same migration with every table searched at planning (`checksEverything`, no census): the same losses
    /// with the same counts, the same progress totals.
    @Test func aRebuiltTableIsReadWholeOnceBeforePhaseOne() async throws {
        let seed = MigrationFixtures.path("Library", "seed.json")
        let counted = try MigrationCase(bundle: try MigrationFixtures.library(), seed: seed)
        let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings)
        let copy = counted.store + StoreFiles.temporarySuffix
        StatementCounter.shared.start(watching: counted.store)
        StatementCounter.shared.start(watching: copy)
        let totals = Totals()
        let report = try await counted.migrate(options) { totals.saw($0) }
        let census = StatementCounter.shared.count(on: counted.store) {
            $0.hasPrefix("SELECT count(*), count(CASE WHEN _entity IS NOT ?1 THEN 1 END)")
                && $0.contains(#"main."Person""#)
        }
        #expect(census == 1)
        #expect(StatementCounter.shared.count(on: copy) { $0.contains(#"count("email")"#) } == 0)
        #expect(StatementCounter.shared.count(on: copy) { $0.contains(#"(SELECT count(*) FROM src."Person")"#) } == 0)

        let searched = try MigrationCase(bundle: try MigrationFixtures.library(), seed: seed)
        var everything = options
        everything.checksEverything = true
        let otherTotals = Totals()
        let other = try await searched.migrate(everything) { otherTotals.saw($0) }
        #expect(report.losses == other.losses)
        #expect(report.losses.map(\.description) == ["Library → Library 2 drops Person.email (2 values)"])
        #expect(totals.values == otherTotals.values)
        #expect(!totals.values.isEmpty)
        #expect(try counted.export() == (try searched.export()))
    }
}
