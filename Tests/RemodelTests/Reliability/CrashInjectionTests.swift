import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Kills `remodel migrate` (SIGKILL, through `REMODEL_FAULT_POINT`) at every named fault
/// point of a two-step migration (Library → Library 2 with a mapping file → Library 3
/// inferred), run step by step (two passes) and composed (one pass), and checks that the store is whole, at the old version with the old data or at
/// the new version with the new data, that a second run finishes the migration, and that
/// nothing is left beside the store.
@Suite(.tags(.crash), .skippable(.crash))
struct CrashInjectionTests {
    /// One armed kill: a fault point and the time it is reached.
    struct Fault: Sendable, CustomTestStringConvertible {
        var point: String
        var hit: Int
        var testDescription: String { "\(point) #\(hit)" }
    }

    /// 300 people and 600 books in batches of 100. Step 1 rebuilds Person (a computed name: 3 batches) and
    /// carries Book (a new column); step 2 changes the schema only (a new column, a new entity, a new join
    /// table), so it writes no batch: 3 batches in all, step by step or composed.
    static let people = 300
    static let batchSize = 100
    static let batchesPerStep = 3

    /// Every fault point a rollback-journal store reaches; those reached more than once are armed at
    /// several of their hits.
    static let faults: [Fault] = FaultPoint.allCases.flatMap { point -> [Fault] in
        let hits: [Int]
        switch point {
        case .afterBatch: hits = [1, 2, batchesPerStep]
        // Every point of a step is reached twice step by step: the second time in the schema-only step.
        case .afterCopy, .afterSchema, .afterInstances, .afterRelationships, .afterValidation, .afterMetadata,
            .afterStep:
            hits = [1, 2]
        case .duringSidecarCleanup: hits = [1, 3]
        case .planned, .beforeRename, .afterRename: hits = [1]
        case .leftWAL, .afterSetAside: hits = []
        }
        return hits.map { Fault(point: point.rawValue, hit: $0) }
    }

    /// Every fault point of the composed run: one pass of two steps, the second reading what the first left
    /// in the pass's copy (each point of a step is armed in both).
    static let composedFaults: [Fault] = FaultPoint.allCases.flatMap { point -> [Fault] in
        let hits: [Int]
        switch point {
        case .afterBatch: hits = [1, batchesPerStep]
        case .afterSchema, .afterInstances, .afterRelationships, .afterValidation: hits = [1, 2]
        case .leftWAL: hits = []
        default: hits = [1]
        }
        return hits.map { Fault(point: point.rawValue, hit: $0) }
    }

    /// The points where a WAL store differs: it stays in WAL mode, untouched, until it leaves WAL mode
    /// just before the replace; then the sidecars it no longer uses are removed and the file replaced.
    static let walFaults: [Fault] = [
        Fault(point: FaultPoint.planned.rawValue, hit: 1), Fault(point: FaultPoint.afterStep.rawValue, hit: 2),
        Fault(point: FaultPoint.leftWAL.rawValue, hit: 1),
        Fault(point: FaultPoint.duringSidecarCleanup.rawValue, hit: 1),
        Fault(point: FaultPoint.duringSidecarCleanup.rawValue, hit: 3),
        Fault(point: FaultPoint.beforeRename.rawValue, hit: 1),
        Fault(point: FaultPoint.afterRename.rawValue, hit: 1),
    ]

    /// Where the original of a WAL store is no longer in WAL mode when the migration is killed.
    static let afterLeavingWAL: Set<String> = [
        FaultPoint.leftWAL.rawValue, FaultPoint.duringSidecarCleanup.rawValue, FaultPoint.beforeRename.rawValue,
    ]

    /// A store a program left with a hot journal: killed once SQLite rolled it back under the lock,
    /// and around the rename.
    static let hotJournalFaults: [Fault] = [FaultPoint.planned, .beforeRename, .afterRename].map {
        Fault(point: $0.rawValue, hit: 1)
    }

    /// The old store's export and the export after a clean migration, made once.
    static let expected = Result { try StoreStates.libraryExports(people: people) }

    @Test(arguments: faults) func killedMigrationLeavesOldOrNewStoreAndResumes(fault: Fault) throws {
        try check(fault, wal: false, stepByStep: true)
    }

    @Test(arguments: composedFaults) func killedComposedMigrationLeavesOldOrNewStoreAndResumes(fault: Fault) throws {
        try check(fault, wal: false, stepByStep: false)
    }

    @Test(arguments: walFaults) func killedMigrationOfWALStoreLeavesOldOrNewStoreAndResumes(fault: Fault) throws {
        try check(fault, wal: true, stepByStep: true)
    }

    @Test(arguments: hotJournalFaults) func killedMigrationOfStoreWithHotJournalLeavesOldOrNewStoreAndResumes(
        fault: Fault
    ) throws {
        try check(fault, wal: false, stepByStep: false, hotJournal: true)
    }

    private func check(_ fault: Fault, wal: Bool, stepByStep: Bool, hotJournal: Bool = false) throws {
        let expected = try Self.expected.get()
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: Self.people)
        if hotJournal {
            // The export of the old store is the store as it was before the unfinished write.
            try StoreStates.leaveHotJournal(in: store)
            try #require(StoreStates.hasHotJournal(store))
        }
        if wal {
            let connection = try SQLiteConnection(path: store, mode: .readWrite)
            #expect(try connection.scalar("PRAGMA journal_mode = WAL") == .text("wal"))
        }

        let killed = try Reliability.migrate(
            store,
            environment: [
                "REMODEL_FAULT_POINT": fault.point, "REMODEL_FAULT_HIT": String(fault.hit),
            ], stepByStep: stepByStep, batchSize: Self.batchSize)
        #expect(killed.killedBySignal == SIGKILL, "the fault point was not reached: \(killed)")

        // Whole, and exactly the old store or the new one.
        #expect(try Reliability.integrity(store) == "ok")
        let version = try Reliability.version(store)
        let export = try Reliability.export(store)
        switch version {
        case "Library": #expect(export == expected.old)
        case "Library 3": #expect(export == expected.new)
        default: Issue.record("after the kill the store is at \(version ?? "no version")")
        }
        let isReplaced = version == "Library 3"
        #expect(
            isReplaced == (fault.point == FaultPoint.afterRename.rawValue),
            "killed at \(fault.testDescription), the store is at \(version ?? "?")")
        if wal && !isReplaced {
            // Untouched (still in WAL mode) until it left WAL mode just before the replace.
            let mode = try SQLiteConnection(path: store, mode: .readOnly).journalMode()
            #expect(
                mode == (Self.afterLeavingWAL.contains(fault.point) ? "delete" : "wal"),
                "killed at \(fault.testDescription)")
        }

        // The next run finishes (or has nothing to do) and cleans up.
        let resumed = try Reliability.migrate(store)
        #expect(resumed.status == 0, "\(resumed)")
        #expect(try Reliability.version(store) == "Library 3")
        #expect(try Reliability.export(store) == expected.new)
        #expect(try Reliability.integrity(store) == "ok")
        let left = try folder.contents().filter { $0 != "library.sqlite" }
        if wal {
            #expect(
                left.allSatisfy { $0 == "library.sqlite-wal" || $0 == "library.sqlite-shm" },
                "left beside the store: \(left)")
        } else {
            #expect(left.isEmpty, "left beside the store: \(left)")
        }
    }
}
