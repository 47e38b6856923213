import Foundation
import Testing

@testable import Remodel

/// `remodel migrate` with many stores, end to end through the built binary.
@Suite(.tags(.slow), .skippable(.slow)) struct FleetCommandTests {
    /// A few hundred stores of every kind, one locked by this process: each is reported as what it
    /// is, the run exits 1 (a refusal), every store that can be is migrated once, the rest untouched;
    /// resumed once the lock is gone, only the stores not done are tried again.
    @Test func aMixedFleetReportsEveryStoreMigratesTheOthersAndResumes() throws {
        let fleet = try FleetFolder()
        try fleet.add(.library1, count: 140)
        try fleet.add(.library2, count: 50)
        try fleet.add(.current, count: 40)
        try fleet.add(.newer, count: 5)
        try fleet.add(.damaged, count: 1)
        try fleet.add(.notAStore, count: 1)
        let locked = try fleet.add(.library1, count: 1, prefix: "locked")[0]
        let report = fleet.folder.file("report.jsonl")
        let untouched = try Dictionary(
            uniqueKeysWithValues: (fleet.paths(.newer) + fleet.paths(.damaged) + fleet.paths(.notAStore)).map {
                ($0, try Data(contentsOf: URL(fileURLWithPath: $0)))
            })

        // Another process's write transaction: SQLite's locks belong to the process, so the child sees it.
        var holder: SQLiteConnection? = try SQLiteConnection(path: locked, mode: .readWrite)
        try holder?.execute("BEGIN IMMEDIATE")
        let result = try FleetCheck.migrate(
            [fleet.folder.path + "/*.sqlite"], ["--jobs", "2", "--report", report, "--progress", "none"])
        try holder?.execute("ROLLBACK")
        holder = nil

        #expect(result.status == 1, "a refused store makes the fleet exit 1: \(result)")
        #expect(
            result.output.contains(
                "238 stores: 190 migrated, 40 already current, 7 refused, 1 failed transiently, 0 not started; 420 objects written in "
            ))
        #expect(
            result.output.contains(
                "Migrated \(fleet.paths(.library2)[0]) from Library 2 to Library 3 in 1 step: 0 objects written"),
            "Library 2 → 3 writes no object: Tag starts empty, Person gains an empty column")
        #expect(result.output.contains("\(fleet.paths(.current)[0]) is already at Library 3: nothing to do."))
        #expect(result.error.split(separator: "\n").filter { $0.hasPrefix("error: ") }.count == 8)

        let lines = try FleetCheck.report(report)
        #expect(lines.count == 238)
        #expect(Set(lines.map(\.path)) == Set(fleet.allPaths))
        for line in lines {
            let kind = line.path == locked ? nil : fleet.kinds[line.path]
            let expected: (outcome: String, reason: String?, from: String?, steps: Int)
            switch kind {
            case .library1: expected = ("migrated", nil, "Library", 2)
            case .library2: expected = ("migrated", nil, "Library 2", 1)
            case .current: expected = ("current", nil, "Library 3", 0)
            case .newer: expected = ("refused", "newer-store", "Library 4", 0)
            case .damaged: expected = ("refused", "damaged", nil, 0)
            case .notAStore: expected = ("refused", "not-a-store", nil, 0)
            case nil: expected = ("transient", "locked", "Library", 0)
            }
            #expect(line.outcome == expected.outcome && line.reason == expected.reason, "\(line)")
            #expect(line.from == expected.from && line.steps == expected.steps && line.to == "Library 3", "\(line)")
            // Library → Library 3 rebuilds Person (3 objects); Library 2 → 3 and current stores write none.
            #expect(
                line.objects
                    == (kind == .library1
                        ? 3 : expected.outcome == "migrated" || expected.outcome == "current" ? 0 : nil),
                "\(line)")
            #expect((line.message == nil) == (expected.reason == nil), "\(line)")
        }
        for path in fleet.paths(.library1) + fleet.paths(.library2) + fleet.paths(.current) where path != locked {
            #expect(try FleetCheck.history(path) == FleetCheck.migratedOnceFromLibrary, "\(path)")
        }
        for (path, data) in untouched {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data, "\(path) was changed")
        }
        #expect(try FleetCheck.history(locked) == ["nil → Library"])
        #expect(try fleet.leftovers().isEmpty)

        let resumed = try FleetCheck.migrate(
            [fleet.folder.path + "/*.sqlite"], ["--jobs", "2", "--resume", report, "--progress", "none"])
        #expect(resumed.status == 1, "the refused stores are tried again, and refused again: \(resumed)")
        #expect(resumed.output.contains("Resuming from \(report): 230 stores already done, 8 to go."))
        #expect(
            resumed.output.contains(
                "8 stores: 1 migrated, 0 already current, 7 refused, 0 failed transiently, 0 not started"))
        let after = try FleetCheck.report(report)
        #expect(after.count == 238 + 8)
        #expect(after.last { $0.path == locked }?.outcome == "migrated")
        #expect(try FleetCheck.history(locked) == FleetCheck.migratedOnceFromLibrary)
    }

    /// A store locked by another process fails transiently: the fleet exits 75 (and so does one
    /// store alone, with the same sentence); resumed once the lock is gone, it is migrated and the
    /// fleet exits 0, without touching the stores already done.
    @Test func aLockedStoreExits75AndResumeFinishesIt() throws {
        let fleet = try FleetFolder()
        let stores = try fleet.add(.library1, count: 3)
        let report = fleet.folder.file("reports/fleet.jsonl")
        var holder: SQLiteConnection? = try SQLiteConnection(path: stores[1], mode: .readWrite)
        try holder?.execute("BEGIN IMMEDIATE")
        let fleetRun = try FleetCheck.start(stores, ["--report", report, "--progress", "none"])
        let single = try FleetCheck.start([stores[1]], ["--progress", "none"])
        let (fleetResult, singleResult) = (fleetRun.wait(), single.wait())
        try holder?.execute("ROLLBACK")
        holder = nil

        #expect(fleetResult.status == 75, "\(fleetResult)")
        #expect(
            fleetResult.output.contains(
                "3 stores: 2 migrated, 0 already current, 0 refused, 1 failed transiently, 0 not started"))
        #expect(singleResult.status == 75, "\(singleResult)")
        #expect(singleResult.output == "")
        let sentence = try #require(singleResult.error.split(separator: "\n").first.map(String.init))
        #expect(sentence.hasPrefix("error: \(stores[1]): another process is writing to the store"))
        #expect(fleetResult.error.contains(sentence))
        #expect(try FleetCheck.report(report).map(\.outcome).sorted() == ["migrated", "migrated", "transient"])

        let resumed = try FleetCheck.migrate(stores, ["--resume", report, "--progress", "none"])
        #expect(resumed.status == 0, "\(resumed)")
        #expect(resumed.output.contains("Resuming from \(report): 2 stores already done, 1 to go."))
        let lines = try FleetCheck.report(report)
        #expect(lines.count == 4)
        #expect(lines.last?.path == stores[1] && lines.last?.outcome == "migrated")
        for store in stores { #expect(try FleetCheck.history(store) == FleetCheck.migratedOnceFromLibrary) }
    }

    /// Usage errors exit 64 with a sentence saying what to give.
    @Test func usageErrorsExit64() throws {
        let fleet = try FleetFolder()
        let store = try fleet.add(.library1, count: 1)[0]
        let cases: [([String], [String], String)] = [
            ([], [], "give the stores to migrate, or --stores-from FILE"),
            ([fleet.folder.path + "/*.nothing"], [], "no file matches the pattern \(fleet.folder.path)/*.nothing"),
            ([store], ["--shard", "2/2"], "--shard 2/2 is shard 2 of 2: I must be from 0 to N - 1"),
            ([store], ["--shard", "one/2"], "--shard takes I/N"),
            ([store], ["--shard", "auto"], "no JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID in the environment"),
            ([store], ["--jobs", "0"], "--jobs takes a number of at least 1"),
            ([store], ["--max-failures", "0"], "--max-failures takes a number of at least 1"),
        ]
        for (stores, options, message) in cases {
            let result = try FleetCheck.migrate(stores, options)
            #expect(result.status == 64, "\(stores) \(options): \(result)")
            #expect(result.error.contains(message), "\(stores) \(options): \(result.error)")
        }
        // A list of stores that is not there is a file that is not there: the command could not start (2).
        let missing = try FleetCheck.migrate([store], ["--stores-from", fleet.folder.file("missing.txt")])
        #expect(missing.status == 2, "\(missing)")
        #expect(
            missing.error == "error: \(fleet.folder.file("missing.txt")): there is no list of stores at this path\n")
        #expect(try FleetCheck.history(store) == ["nil → Library"])
    }

    /// `--canary N`: the first N stores run alone; one failure and no other store starts. Passing
    /// canaries finish before any other store does.
    @Test func aFailedCanaryStartsNoOtherStore() throws {
        let fleet = try FleetFolder()
        let damaged = try fleet.add(.damaged, count: 1, prefix: "a-damaged")[0]
        let stores = try fleet.add(.library1, count: 5, prefix: "b-library")
        let report = fleet.folder.file("report.jsonl")
        let failed = try FleetCheck.migrate(
            [damaged] + stores, ["--canary", "1", "--jobs", "2", "--report", report, "--progress", "none"])
        #expect(failed.status == 1, "\(failed)")
        #expect(
            failed.output.contains(
                "6 stores: 0 migrated, 0 already current, 1 refused, 0 failed transiently, 5 not started"))
        let lines = try FleetCheck.report(report)
        #expect(lines.map(\.outcome) == ["refused"] + Array(repeating: "skipped", count: 5))
        #expect(lines.dropFirst().allSatisfy { $0.reason == "canary-failed" })
        for store in stores { #expect(try FleetCheck.history(store) == ["nil → Library"]) }

        let passed = try FleetCheck.migrate(
            stores, ["--canary", "2", "--jobs", "2", "--report", report, "--progress", "none"])
        #expect(passed.status == 0, "\(passed)")
        let canaries = try FleetCheck.report(report).dropFirst(6).prefix(2).map(\.path)
        #expect(Set(canaries) == Set(stores.prefix(2)), "the canaries finish first: \(canaries)")
    }

    /// `--dry-run` with many stores: a line per store and a count, nothing changed, the exit status a run would have.
    @Test func aDryRunOfAFleetSaysWhatWouldHappenAndChangesNothing() throws {
        let fleet = try FleetFolder()
        let stores = try fleet.add(.library1, count: 2) + fleet.add(.current, count: 1) + fleet.add(.newer, count: 1)
        let before = try FolderSnapshot(fleet.folder.path)
        let result = try FleetCheck.migrate(stores, ["--dry-run", "--report", fleet.folder.file("report.jsonl")])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.output.split(separator: "\n").map(String.init) == [
                "\(stores[0]): Library → Library 3, 2 steps. Runs as 1 pass over the store (steps 1–2 in one).",
                "\(stores[1]): Library → Library 3, 2 steps. Runs as 1 pass over the store (steps 1–2 in one).",
                "\(stores[2]): already at Library 3.",
                "Dry run: 4 stores: 2 to migrate, 1 already current, 1 refused, 0 failing transiently. Nothing was changed.",
            ])
        #expect(
            result.error.hasPrefix("error: The store at \(stores[3]) is at version \"Library 4\""), "\(result.error)")
        #expect(try FolderSnapshot(fleet.folder.path) == before)
    }

    /// `--max-failures K`: after K failures no new store starts; those not started are reported skipped.
    @Test func maxFailuresStopsStartingStores() throws {
        let fleet = try FleetFolder()
        let newer = try fleet.add(.newer, count: 3, prefix: "a-newer")
        let stores = try fleet.add(.library1, count: 4, prefix: "b-library")
        let report = fleet.folder.file("report.jsonl")
        let result = try FleetCheck.migrate(
            newer + stores, ["--max-failures", "2", "--jobs", "1", "--report", report, "--progress", "none"])
        #expect(result.status == 1, "\(result)")
        let lines = try FleetCheck.report(report)
        #expect(lines.map(\.outcome) == ["refused", "refused"] + Array(repeating: "skipped", count: 5))
        #expect(lines.dropFirst(2).allSatisfy { $0.reason == "max-failures" })
        #expect(
            result.output.contains(
                "7 stores: 0 migrated, 0 already current, 2 refused, 0 failed transiently, 5 not started"))
    }

    /// Paths from arguments, a quoted glob and standard input: each store migrated once.
    @Test func storesFromStandardInputGlobsAndArgumentsAreMigratedOnce() throws {
        let fleet = try FleetFolder()
        let stores = try fleet.add(.library1, count: 4)
        let input =
            stores.map { $0.replacingOccurrences(of: fleet.folder.path, with: fleet.folder.path + "/.") }.joined(
                separator: "\n") + "\n"
        let report = fleet.folder.file("report.jsonl")
        let result = try FleetCheck.migrate(
            [stores[0], fleet.folder.path + "/library1-00[1-4].sqlite"],
            ["--stores-from", "-", "--report", report, "--progress", "none"],
            input: input)
        #expect(result.status == 0, "\(result)")
        #expect(try FleetCheck.report(report).map(\.path).sorted() == stores)
        for store in stores { #expect(try FleetCheck.history(store) == FleetCheck.migratedOnceFromLibrary) }
    }

    /// The fleet's bar never grows past the terminal's width: at 40 columns it keeps the count and the
    /// failures; at 120 it has the percentage, the rate and the failures too.
    @Test func theFleetBarFitsTheTerminal() throws {
        for (columns, wanted) in [(40, ["stores", "1 failed"]), (120, ["stores", "%", "obj/s", "1 failed"])] {
            let fleet = try FleetFolder()
            let stores = try fleet.add(.library1, count: 4) + fleet.add(.newer, count: 1)
            let result = try FleetCheck.migrate(
                stores, ["--progress", "bar", "--jobs", "2"], environment: ["COLUMNS": "\(columns)"])
            #expect(result.status == 1, "\(result)")
            let bars = result.error.components(separatedBy: "\r\u{1B}[2K").flatMap { $0.split(separator: "\n") }.map(
                String.init
            )
            .filter { $0.contains("stores") }
            #expect(bars.count >= 6, "\(result.error)")
            for bar in bars { #expect(bar.count < columns, "wider than \(columns) columns: \(bar)") }
            let last = try #require(bars.last)
            #expect(last.contains("5/5 stores"), "\(last)")
            for text in wanted { #expect(last.contains(text), "\(text) missing at \(columns) columns: \(last)") }
        }
    }

    /// `--progress json`: each store's progress events, its result event, and the fleet's tally after each.
    @Test func jsonProgressHasStoreAndFleetEvents() throws {
        let fleet = try FleetFolder()
        let stores = try fleet.add(.library1, count: 2) + fleet.add(.current, count: 1) + fleet.add(.newer, count: 1)
        let result = try FleetCheck.migrate(stores, ["--progress", "json", "--jobs", "2"])
        #expect(result.status == 1, "\(result)")
        var events: [String: [[String: Any]]] = [:]
        for line in result.error.split(separator: "\n") where line.hasPrefix("{") {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            events[try #require(object["event"] as? String), default: []].append(object)
        }
        let progress = try #require(events["progress"])
        #expect(Set(progress.compactMap { $0["store"] as? String }) == Set(stores.prefix(3)))
        for key in [
            "phase", "step", "steps", "pass", "passes", "passSteps", "entity", "completed", "total", "fraction",
        ] {
            #expect(progress.allSatisfy { $0[key] != nil }, "\(key) missing")
        }
        let results = try #require(events["store"])
        #expect(results.count == 4)
        #expect(
            results.compactMap { $0["outcome"] as? String }.sorted() == ["current", "migrated", "migrated", "refused"])
        let tallies = try #require(events["fleet"])
        #expect(tallies.count == 5)
        #expect(tallies.map { $0["finished"] as? Int } == [0, 1, 2, 3, 4])
        #expect(
            tallies.last?["total"] as? Int == 4 && tallies.last?["refused"] as? Int == 1
                && tallies.last?["objects"] as? Int == 6, "two stores whose Person table (3 objects) is rebuilt")
    }
}
