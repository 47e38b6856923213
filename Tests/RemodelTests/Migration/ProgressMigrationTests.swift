import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Progress reported during a migration: through the callback, the `AsyncSequence` and
/// `Foundation.Progress`; and cancellation from the callback.
@Suite struct ProgressMigrationTests {
    private static let options = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings, batchSize: 1)
    /// Every version written in turn: Library → 2 → 3 is two passes.
    private static let stepByStep: MigrationOptions = {
        var stepByStep = MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings, batchSize: 1)
        stepByStep.composesSteps = false
        return stepByStep
    }()

    private func library() throws -> MigrationCase {
        try MigrationCase(bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
    }

    private static let order: [MigrationProgress.Phase] = [.instances, .relationships, .indexes, .validation, .replace]

    /// Checks the rules every sequence of progress values follows: `step` and `steps` count the plan's steps,
    /// `pass` and `passes` the passes over the store, and each step goes through every phase in order.
    private func checkSequence(
        _ events: [MigrationProgress], steps: Int, passes: Int, entities: Set<String>,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        guard let first = events.first, let last = events.last else {
            Issue.record("no progress at all", sourceLocation: sourceLocation)
            return
        }
        #expect(
            first.phase == .planning && first.fraction == 0 && first.step == 0 && first.pass == 0,
            sourceLocation: sourceLocation)
        #expect(last.phase == .finished, sourceLocation: sourceLocation)
        #expect(last.fraction == 1.0, sourceLocation: sourceLocation)
        #expect(last.step == steps && last.steps == steps, sourceLocation: sourceLocation)
        #expect(last.pass == passes && last.passes == passes, sourceLocation: sourceLocation)
        #expect(
            events.dropLast().allSatisfy { $0.fraction < 1 }, "only the last value is 1", sourceLocation: sourceLocation
        )
        for (previous, next) in zip(events, events.dropFirst()) {
            #expect(next.fraction >= previous.fraction, "\(previous) then \(next)", sourceLocation: sourceLocation)
            #expect(next.step >= previous.step && next.pass >= previous.pass, sourceLocation: sourceLocation)
            if next.step == previous.step, let a = Self.order.firstIndex(of: previous.phase),
                let b = Self.order.firstIndex(of: next.phase)
            {
                #expect(
                    b >= a, "phases never go backwards within a step: \(previous.phase) then \(next.phase)",
                    sourceLocation: sourceLocation)
            }
        }
        for event in events.dropFirst() {
            #expect(event.steps == steps && event.passes == passes, "\(event)", sourceLocation: sourceLocation)
        }
        for event in events where event.phase != .planning {
            #expect((1...steps).contains(event.step), sourceLocation: sourceLocation)
            #expect((1...passes).contains(event.pass), sourceLocation: sourceLocation)
            #expect(event.passSteps?.contains(event.step) == true, "\(event)", sourceLocation: sourceLocation)
            #expect(event.completed >= 0 && event.completed <= event.total, "\(event)", sourceLocation: sourceLocation)
            #expect((0...1).contains(event.fraction), sourceLocation: sourceLocation)
        }
        let instanceEntities = Set(events.filter { $0.phase == .instances }.compactMap(\.entity))
        #expect(instanceEntities.isSubset(of: entities), "\(instanceEntities)", sourceLocation: sourceLocation)
        #expect(!instanceEntities.isEmpty, sourceLocation: sourceLocation)
        for step in 1...steps {
            let phases = Set(events.filter { $0.step == step && $0.phase != .finished }.map(\.phase))
            // Every step has the four phases; only the last one replaces the store.
            let expected: Set<MigrationProgress.Phase> =
                step == steps
                ? [.instances, .relationships, .indexes, .validation, .replace]
                : [.instances, .relationships, .indexes, .validation]
            #expect(phases == expected, "step \(step) reports its phases", sourceLocation: sourceLocation)
        }
    }

    @Test func callbackValuesArriveInOrder() async throws {
        let migration = try library()
        let events = Collector<MigrationProgress>()
        try await migration.migrate(Self.stepByStep) { events.append($0) }
        checkSequence(events.values, steps: 2, passes: 2, entities: ["Book", "Person"])
    }

    /// Composed, the two steps are one pass: `step` still counts the plan's steps, `pass` the one pass.
    @Test func aComposedMigrationReportsOnePass() async throws {
        let migration = try library()
        let events = Collector<MigrationProgress>()
        let report = try await migration.migrate(Self.options) { events.append($0) }
        #expect(report.steps == 2, "the report still counts the versions stepped through")
        checkSequence(events.values, steps: 2, passes: 1, entities: ["Book", "Person"])
        expectSameText(try migration.export(), try MigrationFixtures.text("Library", "expected-3.json"))
    }

    /// Phase 1's total is the number of source objects of the tables the pass rebuilds (the others are
    /// carried): counted from the whole table where it holds one entity (Library's Person, 3 of its 6
    /// objects; its Books are carried), by `_entity` where it holds several (Inheritance's Shape holds
    /// Circle and Square, 4 objects: counting the whole table for each would give 4 + 4; Media is carried).
    @Test func instancesTotalIsTheNumberOfSourceObjects() async throws {
        let inheritance = try MigrationCase(fixture: "Inheritance")
        for (migration, mappings, objects) in [
            (try library(), MigrationFixtures.libraryMappings, 3), (inheritance, nil, 4),
        ] {
            let events = Collector<MigrationProgress>()
            try await migration.migrate(MigrationOptions(mappingsDirectory: mappings)) { events.append($0) }
            let totals = Set(events.values.filter { $0.phase == .instances && $0.step == 1 }.map(\.total))
            #expect(totals == [objects])
        }
    }

    /// Planning goes from 0 to 1 of 1; every phase keeps the total of its first value; phases 2 and 3
    /// count rows (Library's seed has 6 objects: phase 3 counts at least those), and the pass names
    /// the plan's steps it runs; fractions carry at most 4 decimals.
    @Test func phasesKeepTheirTotalsAndCountRows() async throws {
        let migration = try library()
        let events = Collector<MigrationProgress>()
        try await migration.migrate(Self.options) { events.append($0) }
        let values = events.values
        let planning = values.filter { $0.phase == .planning }.map { "\($0.completed)/\($0.total)" }
        #expect(planning == ["0/1", "1/1"])
        var totals: [String: Set<Int>] = [:]
        for value in values {
            totals["\(value.step) \(value.phase)", default: []].insert(value.total)
        }
        #expect(totals.values.allSatisfy { $0.count == 1 }, "\(totals)")
        let checked = try #require(values.last { $0.phase == .validation })
        #expect(checked.total >= 6 && checked.completed == checked.total, "\(checked)")
        #expect(values.filter { $0.phase != .planning }.allSatisfy { $0.passSteps == 1...2 && $0.pass == 1 })
        #expect(Set(values.map(\.step)) == [0, 1, 2], "each step of the pass reports its phases")
        // `k / 10_000` times 10_000 is not always exactly `k` in binary floating point: a hair off counts as exact.
        #expect(values.allSatisfy { abs(($0.fraction * 10_000).rounded() - $0.fraction * 10_000) < 1e-6 })
    }

    /// Building the indexes is a phase of its own, between the links and the checks: Library 2 → 3 adds Tag,
    /// its unique name and the Book–Tag join table, whose index builds weigh the rows of their tables. Phase 2
    /// counts only its links (none in that step), no longer the index rows.
    @Test func indexBuildsAreAPhaseOfTheirOwn() async throws {
        let migration = try library()
        let events = Collector<MigrationProgress>()
        try await migration.migrate(Self.options) { events.append($0) }
        let second = events.values.filter { $0.step == 2 && $0.phase != .finished }
        #expect(
            second.map(\.phase).reduce(into: [MigrationProgress.Phase]()) { if $0.last != $1 { $0.append($1) } }
                == [.instances, .relationships, .indexes, .validation, .replace])
        let indexes = second.filter { $0.phase == .indexes }
        #expect(indexes.first?.completed == 0 && indexes.first?.entity == nil)
        let built = try #require(indexes.last)
        #expect(built.total > 0 && built.completed == built.total, "\(built)")
        #expect(built.entity == "Tag", "the last index built is Tag's unique name")
        #expect(second.filter { $0.phase == .relationships }.allSatisfy { $0.total == 0 }, "\(second)")
    }

    @Test func startDeliversAnAsyncSequenceAndFoundationProgress() async throws {
        let migration = try library()
        let run = Migrator(bundle: migration.bundle, options: Self.stepByStep).start(storeAt: migration.store)
        var events: [MigrationProgress] = []
        for await value in run.progressUpdates { events.append(value) }
        let report = try await run.result
        #expect(report.steps == 2)
        checkSequence(events, steps: 2, passes: 2, entities: ["Book", "Person"])
        #expect(run.progress.fractionCompleted == 1.0)
        #expect(run.progress.completedUnitCount == run.progress.totalUnitCount)
        expectSameText(try migration.export(), try MigrationFixtures.text("Library", "expected-3.json"))
    }

    /// Cancelling the task at the first phase-1 value (batches of one object, so many batches
    /// follow) throws `.cancelled` and leaves the original byte-identical with nothing beside it.
    @Test func cancellingTheTaskAtPhaseOneLeavesTheStore() async throws {
        let migration = try library()
        let before = try migration.snapshot()
        let events = Collector<MigrationProgress>()
        let options = Self.options
        let migrator = Migrator(bundle: migration.bundle, options: options)
        let store = migration.store
        let request = CancelRequest()
        let task = Task { () async throws(RemodelError) -> MigrationReport in
            defer { request.migrationEnded() }
            return try await migrator.migrate(storeAt: store) { value in
                events.append(value)
                if value.phase == .instances { request.cancelAndWait() }
            }
        }
        #expect(await request.grant(to: task))
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("the migration finished although it was cancelled")
            return
        }
        #expect((error as? RemodelError)?.code == .cancelled, "\(error)")
        #expect(events.values.last?.phase == .instances, "nothing is reported after the cancellation")
        #expect(events.values.filter { $0.phase == .instances }.count == 1)
        #expect(try migration.snapshot() == before)
    }
}
