import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Kills `remodel migrate --downgrade` and `remodel rollback` (SIGKILL, through `REMODEL_FAULT_POINT`) at
/// their fault points: the store is whole, either the newer store as it was or the store migrated down,
/// and the next run finishes.
@Suite(.tags(.crash), .skippable(.crash))
struct DowngradeCrashTests {
    static let faults: [CrashInjectionTests.Fault] = FaultPoint.allCases.flatMap {
        point -> [CrashInjectionTests.Fault] in
        switch point {
        // The downgrade changes Person, Book and Tag in place (columns and tables dropped): it writes no batch. It is
        // one step, so no later step of its pass sets tables aside.
        case .leftWAL, .afterBatch, .afterSetAside: return []
        default: return [CrashInjectionTests.Fault(point: point.rawValue, hit: 1)]
        }
    }

    @Test(arguments: faults) func aKilledDowngradeLeavesTheOldOrTheNewStoreWhole(fault: CrashInjectionTests.Fault)
        throws
    {
        let scene = try DowngradeScene()
        let original = try scene.export()
        let arguments = [
            "migrate", scene.store, "--model", scene.olderPath, "--progress", "none", "--downgrade", "lossless",
        ]
        let killed = try Reliability.remodel(
            arguments, environment: ["REMODEL_FAULT_POINT": fault.point, "REMODEL_FAULT_HIT": String(fault.hit)])
        #expect(killed.killedBySignal == SIGKILL, "the fault point was not reached: \(killed)")

        #expect(try Reliability.integrity(scene.store) == "ok")
        let state = try StoreInspector.inspect(path: scene.store, bundle: scene.newer).state
        switch state {
        case .current(version: "Library 3"): expectSameText(try scene.export(), original)
        case .older(version: "Library 2", _): expectSameText(try scene.export(), DowngradeScene.downgradedExport)
        default: Issue.record("after the kill at \(fault.testDescription) the store is \(state)")
        }
        #expect(
            (state == .current(version: "Library 3")) == (fault.point != FaultPoint.afterRename.rawValue),
            "killed at \(fault.testDescription)")

        let resumed = try Reliability.remodel(arguments)
        #expect(resumed.status == 0, "\(resumed)")
        expectSameText(try scene.export(), DowngradeScene.downgradedExport)
        #expect(try scene.folder.contents() == ["library.sqlite", "older"])
    }

    /// An allow-loss downgrade killed around the replace, then `rollback`: the backup goes back only when the
    /// store is the one the migration made; killed before the rename, the store is the original, which the
    /// record does not describe, and nothing is put back.
    @Test(arguments: [FaultPoint.beforeRename, .afterRename])
    func aKilledAllowLossDowngradeRollsBackOnlyOverItsOwnStore(point: FaultPoint) throws {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let original = try fileBytes(scene.store)
        let arguments = [
            "migrate", scene.store, "--model", scene.olderPath, "--progress", "none", "--downgrade", "allow-loss",
        ]
        let killed = try Reliability.remodel(arguments, environment: ["REMODEL_FAULT_POINT": point.rawValue])
        #expect(killed.killedBySignal == SIGKILL, "\(killed)")
        let rollback = try Reliability.remodel(["rollback", scene.store])
        if point == .afterRename {
            #expect(rollback.status == 0, "\(rollback)")
        } else {
            #expect(rollback.status == 1, "\(rollback)")
            #expect(
                rollback.error.contains(
                    "cannot roll back: the store was written since the migration that made the backup"), "\(rollback)")
        }
        #expect(try fileBytes(scene.store) == original)
    }

    /// `rollback` killed before or after its rename: the store is the migrated one or the original, whole,
    /// and a second `rollback` finishes (or finds nothing left to put back).
    @Test(arguments: [FaultPoint.beforeRename, .afterRename]) func aKilledRollbackLeavesOneStoreOrTheOther(
        point: FaultPoint
    ) throws {
        let scene = try DowngradeScene(seed: DowngradeScene.lossySeed)
        let original = try fileBytes(scene.store)
        #expect(
            try Reliability.remodel([
                "migrate", scene.store, "--model", scene.olderPath, "--progress", "none", "--downgrade", "allow-loss",
            ]).status == 0)
        let migrated = try fileBytes(scene.store)
        let killed = try Reliability.remodel(
            ["rollback", scene.store], environment: ["REMODEL_FAULT_POINT": point.rawValue])
        #expect(killed.killedBySignal == SIGKILL, "\(killed)")
        #expect(try fileBytes(scene.store) == (point == .afterRename ? original : migrated))
        let again = try Reliability.remodel(["rollback", scene.store])
        #expect(again.status == (point == .afterRename ? 1 : 0), "\(again)")
        #expect(try fileBytes(scene.store) == original)
    }
}
