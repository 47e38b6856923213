import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

#if canImport(Glibc)
    import Glibc
#endif

/// A fleet run killed (SIGKILL) in the middle, then resumed from its report: every store ends
/// migrated exactly once, none is left half-done, and the report lists every store as done once.
@Suite(.tags(.slow), .skippable(.slow)) struct FleetResumeTests {
    /// Killed by its own fault point right after a store's file was replaced — before its report
    /// line was written, the worst moment for the report.
    @Test func killedRightAfterAReplaceThenResumed() throws {
        let fleet = try FleetFolder()
        let stores = try fleet.add(.library1, count: 60)
        let report = fleet.folder.file("report.jsonl")
        let killed = try FleetCheck.migrate(
            stores, ["--jobs", "2", "--report", report, "--progress", "none"],
            environment: ["REMODEL_FAULT_POINT": "after-rename", "REMODEL_FAULT_HIT": "25"])
        #expect(killed.killedBySignal == SIGKILL, "\(killed)")
        let before = try FleetCheck.report(report, tolerant: true)
        #expect(before.count < 25, "the 25th store's line cannot have been written: \(before.count) lines")
        try resumeAndCheck(fleet, stores, report: report, expectCurrent: true)
    }

    /// Killed from outside at whatever it was doing once a third of the stores are reported.
    @Test func killedFromOutsideThenResumed() throws {
        let fleet = try FleetFolder()
        let stores = try fleet.add(.library1, count: 60)
        let report = fleet.folder.file("report.jsonl")
        let child = try FleetCheck.start(stores, ["--jobs", "2", "--report", report, "--progress", "none"])
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, child.process.isRunning,
            (try? FleetCheck.report(report, tolerant: true).count) ?? 0 < 20
        {
            usleep(2_000)
        }
        kill(child.process.processIdentifier, SIGKILL)
        let killed = child.wait()
        #expect(killed.killedBySignal == SIGKILL, "the run ended before it was killed: \(killed)")
        try resumeAndCheck(fleet, stores, report: report, expectCurrent: false)
    }

    /// Every store whole and at the old or the new version; then `--resume` migrates the rest, and
    /// every store is migrated once with exactly one line saying it is done.
    private func resumeAndCheck(_ fleet: FleetFolder, _ stores: [String], report: String, expectCurrent: Bool) throws {
        for store in stores {
            #expect(try Reliability.integrity(store) == "ok", "\(store)")
            let history = try FleetCheck.history(store)
            #expect(
                history == ["nil → Library"] || history == FleetCheck.migratedOnceFromLibrary, "\(store): \(history)")
        }
        let resumed = try FleetCheck.migrate(stores, ["--jobs", "2", "--resume", report, "--progress", "none"])
        #expect(resumed.status == 0, "\(resumed)")
        let leftovers = try fleet.leftovers()
        #expect(leftovers.isEmpty, "left beside the stores: \(leftovers)")
        let lines = try FleetCheck.report(report, tolerant: true)
        let byStore = Dictionary(grouping: lines, by: \.path)
        #expect(Set(byStore.keys) == Set(stores))
        for store in stores {
            let outcomes = byStore[store]?.map { $0.outcome } ?? []
            #expect(outcomes == ["migrated"] || outcomes == ["current"], "\(store): \(outcomes)")
            #expect(try FleetCheck.history(store) == FleetCheck.migratedOnceFromLibrary, "\(store)")
            #expect(try Reliability.integrity(store) == "ok")
        }
        if expectCurrent {
            #expect(lines.contains { $0.outcome == "current" }, "the store replaced before the kill is found current")
        }
    }
}
