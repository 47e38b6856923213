import Foundation
import Testing

@testable import Remodel
@testable import RemodelFleet
@testable import RemodelModel

/// `Migrator.migrate(stores:jobs:options:progress:)`: one result per store, plans shared, per-store
/// screening kept, cancellation.
@Suite(.tags(.slow), .skippable(.slow)) struct FleetAPITests {
    private static func migrator() throws -> Migrator {
        try Migrator(
            bundle: MigrationFixtures.library(),
            options: MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings))
    }

    /// Every store gets one result; the mapping folder is read once and each source version planned once.
    @Test func oneResultPerStoreAndOnePlanPerSourceVersion() async throws {
        let fleet = try FleetFolder()
        try fleet.add(.library1, count: 12)
        try fleet.add(.library2, count: 6)
        try fleet.add(.current, count: 4)
        try fleet.add(.newer, count: 2)
        var migrator = try Self.migrator()
        let plans = MigrationPlanCache(bundle: migrator.bundle, options: migrator.options)
        migrator.plans = plans
        let progressed = Collector<String>()
        let results = migrator.migrate(stores: fleet.allPaths + [fleet.allPaths[0]], jobs: 3) { store, _ in
            progressed.append(store)
        }
        #expect(results.count == 24, "a repeated path is migrated once")
        var tally = FleetTally(total: results.count)
        var seen: [String] = []
        for await result in results {
            tally.add(result)
            seen.append(result.path)
            switch fleet.kinds[result.path] {
            case .library1, .library2:
                #expect(result.outcome == .migrated && result.report?.targetVersion == "Library 3")
            case .current: #expect(result.outcome == .current && result.steps == 0 && result.objects == 0)
            default:
                #expect(
                    result.outcome == .refused && result.reason == .newerStore && result.sourceVersion == "Library 4")
            }
        }
        #expect(seen.sorted() == fleet.allPaths)
        #expect(
            tally[.migrated] == 18 && tally[.current] == 4 && tally[.refused] == 2 && tally.objectsMigrated == 36,
            "12 stores from Library whose Person table (3 objects) is rebuilt")
        #expect(plans.catalogReads == 1)
        // A store already current needs no plan: it is found current before its lock is taken.
        #expect(plans.plannedVersions.sorted() == ["Library", "Library 2"])
        #expect(Set(progressed.values) == Set(fleet.allPaths).subtracting(fleet.paths(.newer)))
    }

    /// Stores at the same version share a plan, yet each is screened against its own data: a store
    /// whose objects make a step's problem real is refused naming them, between two that are migrated.
    @Test func sharedPlansStillScreenEachStoresData() async throws {
        let v1 = try makeVersion(
            "V1", #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/></entity>"#)
        let v2 = try makeVersion(
            "V2", #"<entity name="Person"><attribute name="name" attributeType="String"/></entity>"#)
        let bundle = makeBundle("Notes", v1, v2)
        let folder = try TemporaryFolder()
        var stores: [String] = []
        for (number, names) in [["Ada"], ["Ada", nil, nil], ["Grace"]].enumerated() {
            let people = names.enumerated().map {
                #"{"_pk": \#($0.offset + 1), "name": \#($0.element.map { "\"\($0)\"" } ?? "null")}"#
            }
            let seed = try folder.write(#"{"Person": [\#(people.joined(separator: ", "))]}"#, to: "seed\(number).json")
            stores.append(folder.file("store\(number).sqlite"))
            _ = try Store.create(at: stores[number], bundle: bundle, version: "V1", seed: seed)
        }
        var outcomes: [String: StoreMigrationResult] = [:]
        for await result in Migrator(bundle: bundle).migrate(stores: stores, jobs: 1) { outcomes[result.path] = result }
        #expect(outcomes[stores[0]]?.outcome == .migrated)
        #expect(outcomes[stores[2]]?.outcome == .migrated)
        let refused = try #require(outcomes[stores[1]])
        #expect(refused.outcome == .refused && refused.reason == .notPlannable)
        #expect(refused.error?.message.contains("(this store has 2 Person objects it applies to: _pk 2, 3)") == true)
    }

    /// A store whose migrated data breaks the model's rules is refused for its data, untouched.
    @Test func dataThatBreaksTheRulesIsRefusedForItsData() async throws {
        let migration = try MigrationCase(fixture: "RequiredNil")
        let before = try migration.snapshot()
        let migrator = Migrator(
            bundle: migration.bundle,
            options: MigrationOptions(mappingsDirectory: MigrationFixtures.mappings("RequiredNil")))
        var results: [StoreMigrationResult] = []
        for await result in migrator.migrate(stores: [migration.store]) { results.append(result) }
        #expect(results.map(\.outcome) == [.refused])
        #expect(results.first?.reason == .data)
        #expect(results.first?.jsonLine.contains(#""reason":"data""#) == true)
        #expect(try migration.snapshot() == before)
    }

    /// `cancel()` while the first store is in phase 1 (from its progress, on the migrating thread): the
    /// stores being migrated are left as they were, the others are not started, and every store still
    /// gets its one result.
    @Test func cancellingLeavesEveryStoreWholeAndStartsNoOther() async throws {
        let fleet = try FleetFolder()
        let stores = try fleet.add(.library1, count: 30)
        let handle = Collector<FleetMigration>()
        let results = try Self.migrator().migrate(stores: stores, jobs: 2) { store, progress in
            guard store == stores[0], progress.phase == .instances else { return }
            // The fleet is handed back as soon as its threads start; wait for it here at most a second.
            for _ in 0..<1000 where handle.values.isEmpty { usleep(1000) }
            handle.values.first?.cancel()
        }
        handle.append(results)
        var outcomes: [String: StoreMigrationResult] = [:]
        for await result in results { outcomes[result.path] = result }
        #expect(outcomes.count == 30)
        #expect(outcomes[stores[0]]?.outcome == .transient && outcomes[stores[0]]?.reason == .cancelled)
        let skipped = outcomes.values.filter { $0.outcome == .skipped }
        // The other worker may have finished a store or two meanwhile (more on a loaded machine), not the fleet.
        #expect(
            skipped.count >= 20 && skipped.allSatisfy { $0.reason == .cancelled }, "\(outcomes.values.map(\.outcome))")
        for store in stores {
            let history = try FleetCheck.history(store)
            #expect(
                history == ["nil → Library"] || history == FleetCheck.migratedOnceFromLibrary, "\(store): \(history)")
        }
        #expect(try FleetCheck.history(stores[0]) == ["nil → Library"])
        #expect(try fleet.leftovers().isEmpty)
    }

    /// Cancelling the task that iterates (here while the first store is in phase 1) ends the sequence;
    /// the migrations in flight are cancelled and leave their stores whole, and no other store starts.
    @Test func cancellingTheTaskStopsTheFleet() async throws {
        let fleet = try FleetFolder()
        let stores = try fleet.add(.library1, count: 30)
        let migrator = try Self.migrator()
        let handle = Collector<Task<Int, Never>>()
        let task = Task {
            var count = 0
            for await _ in migrator.migrate(
                stores: stores, jobs: 2,
                progress: { store, progress in
                    guard store == stores[0], progress.phase == .instances else { return }
                    for _ in 0..<1000 where handle.values.isEmpty { usleep(1000) }
                    handle.values.first?.cancel()
                })
            {
                count += 1
            }
            return count
        }
        handle.append(task)
        let count = await task.value
        #expect(count < 30, "the sequence ended when its task was cancelled")
        // The workers finish the stores they hold (cancelled, cleaned up) and start no other.
        var leftovers = try fleet.leftovers()
        for _ in 0..<250 where !leftovers.isEmpty {
            try await Task.sleep(nanoseconds: 20_000_000)
            leftovers = try fleet.leftovers()
        }
        #expect(leftovers.isEmpty)
        #expect(try FleetCheck.history(stores[0]) == ["nil → Library"], "the store in flight was left as it was")
        let migrated = try stores.filter { try FleetCheck.history($0) == FleetCheck.migratedOnceFromLibrary }.count
        #expect(migrated < 10, "the fleet stopped: \(migrated) migrated")
        for store in stores { #expect(try Reliability.integrity(store) == "ok") }
    }
}
