import Foundation
import Testing

@testable import Remodel
@testable import RemodelFleet
@testable import RemodelModel

/// The parts of a fleet run: shards, store lists, the report file, failure reasons.
@Suite(.tags(.slow), .skippable(.slow)) struct FleetPartsTests {
    @Test func shardsComeFromTheCommandLineOrTheJobRunner() throws {
        #expect(try FleetShard(parsing: "1/4", environment: [:]) == FleetShard(index: 1, count: 4))
        #expect(
            try FleetShard(parsing: "auto/4", environment: ["JOB_COMPLETION_INDEX": "3"])
                == FleetShard(index: 3, count: 4))
        let slurm = ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "3"]
        #expect(try FleetShard(parsing: "auto", environment: slurm) == FleetShard(index: 1, count: 3))
        #expect(
            try FleetShard(
                parsing: "auto/auto", environment: ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"])
                == FleetShard(index: 0, count: 2))
        for (text, environment) in [
            ("4/4", [:]), ("-1/4", [:]), ("1/0", [:]), ("1", [:]), ("a/b", [:]), ("auto/4", [:]),
            ("0/auto", ["JOB_COMPLETION_INDEX": "0"]),
        ] {
            #expect(throws: FleetShard.ParseError.self, "\(text)") {
                try FleetShard(parsing: text, environment: environment)
            }
        }
    }

    /// Whatever order each shard gets the list in, the shards cover it exactly once, in byte order.
    @Test func shardsCoverTheListOnceWhateverItsOrder() {
        let paths =
            (0..<23).map { "stores/user-\($0).sqlite" } + [
                "stores/Zed.sqlite", "stores/été.sqlite", "stores/a b.sqlite",
            ]
        var covered: [String] = []
        for index in 0..<4 {
            let shard = FleetShard(index: index, count: 4)
            let selected = shard.select(index % 2 == 0 ? paths : paths.reversed())
            #expect(Set(selected) == Set(shard.select(paths.shuffled())))
            #expect(abs(selected.count - paths.count / 4) <= 1)
            covered += selected
        }
        #expect(covered.sorted() == paths.sorted())
        // Byte order, as `LC_ALL=C sort`: "Zed" (Z = 0x5A) before "a b", and "été" (0xC3…) last.
        #expect(FleetShard(index: 0, count: 26).select(paths) == ["stores/Zed.sqlite"])
        #expect(FleetShard(index: 25, count: 26).select(paths) == ["stores/été.sqlite"])
    }

    @Test func storeListsExpandGlobsReadFilesAndDropRepeats() throws {
        let folder = try TemporaryFolder()
        for name in ["b.sqlite", "a.sqlite", "c.db", "odd[1].sqlite"] { _ = try folder.write("", to: name) }
        #expect(
            try StoreList.expand([folder.file("*.sqlite")]) == [
                folder.file("a.sqlite"), folder.file("b.sqlite"), folder.file("odd[1].sqlite"),
            ])
        #expect(
            try StoreList.expand([folder.file("odd[1].sqlite")]) == [folder.file("odd[1].sqlite")],
            "an existing file is taken as it is")
        #expect(
            try StoreList.expand([folder.file("missing.sqlite")]) == [folder.file("missing.sqlite")],
            "a plain path is kept for the run to report")
        #expect(throws: RemodelError.self) { try StoreList.expand([folder.file("*.nothing")]) }
        let list = try folder.write(
            "\(folder.path)/a.sqlite\r\n\n\(folder.path)/./a.sqlite\nb.sqlite\n", to: "list.txt")
        let read = try StoreList.read(listAt: list)
        #expect(read == [folder.file("a.sqlite"), folder.path + "/./a.sqlite", "b.sqlite"])
        #expect(StoreList.unique(read) == [folder.file("a.sqlite"), "b.sqlite"])
    }

    /// A report cut short by a crash: its last line is ignored when resuming, and the next line written
    /// starts on a line of its own. Only done stores at the same target count.
    @Test func aReportCutShortStillResumes() throws {
        let folder = try TemporaryFolder()
        let report = try folder.write(
            """
            {"path":"\(folder.path)/a.sqlite","outcome":"migrated","to":"Library 3"}
            {"path":"\(folder.path)/b.sqlite","outcome":"current","to":"Library 3"}
            {"path":"\(folder.path)/c.sqlite","outcome":"transient","to":"Library 3"}
            {"path":"\(folder.path)/d.sqlite","outcome":"refused","to":"Library 3"}
            {"path":"\(folder.path)/e.sqlite","outcome":"migrated","to":"Library 2"}
            {"path":"\(folder.path)/f.sqlite","outcome":"migr
            """, to: "report.jsonl")
        #expect(
            try FleetReportFile.doneStores(in: report, target: "Library 3") == [
                folder.file("a.sqlite"), folder.file("b.sqlite"),
            ])
        #expect(try FleetReportFile.doneStores(in: folder.file("none.jsonl"), target: "Library 3").isEmpty)
        do {
            let file = try FleetReportFile(appendingTo: report)
            try file.append(#"{"path":"\#(folder.path)/f.sqlite","outcome":"migrated","to":"Library 3"}"#)
        }
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.suffix(3) == [
                #"{"path":"\#(folder.path)/f.sqlite","outcome":"migr"#,
                #"{"path":"\#(folder.path)/f.sqlite","outcome":"migrated","to":"Library 3"}"#, "",
            ])
        #expect(try FleetReportFile.doneStores(in: report, target: "Library 3").contains(folder.file("f.sqlite")))
    }

    /// Reasons come from codes: the error's, SQLite's, the system's `errno`, the file's state.
    @Test func reasonsComeFromCodesNotWords() {
        typealias Reason = StoreMigrationResult.Reason
        func sqlite(_ code: Int32) -> RemodelError { RemodelError.sqlite(code, message: "locked") }
        func io(_ code: POSIXErrorCode?) -> RemodelError {
            RemodelError(.io, "disk full", cause: code.map { POSIXError($0) })
        }
        let cases: [(RemodelError, StoreInspection?, Reason)] = [
            (RemodelError(.locked, "x"), nil, .locked),
            (RemodelError(.validationFailed, "locked"), nil, .data),
            (RemodelError(.migrationNotPlannable, "x"), nil, .notPlannable),
            (RemodelError(.invalidMapping, "x"), nil, .invalidMapping),
            (RemodelError(.cancelled, "x"), nil, .cancelled),
            (sqlite(5), nil, .busy), (sqlite(517), nil, .busy), (sqlite(13), nil, .diskFull), (sqlite(10), nil, .io),
            (sqlite(11), nil, .damaged), (sqlite(8), nil, .notWritable), (sqlite(19), nil, .failed),
            (io(.ENOSPC), nil, .diskFull), (io(.EROFS), nil, .notWritable), (io(.EIO), nil, .io), (io(nil), nil, .io),
            (RemodelError(.incompatibleStore, "x"), inspection(.newer(versionName: "V9")), .newerStore),
            (RemodelError(.incompatibleStore, "x"), inspection(.notSQLite(reason: "x")), .damaged),
            (RemodelError(.incompatibleStore, "x"), inspection(.missing), .missing),
            (RemodelError(.incompatibleStore, "x"), nil, .incompatible),
        ]
        for (error, inspection, reason) in cases {
            #expect(
                Reason.of(error, inspection: inspection) == reason,
                "\(error.code) \(error.sqliteCode ?? 0) \(String(describing: error.cause))")
        }
        #expect([Reason.locked, .busy, .diskFull, .memory, .io, .cancelled].allSatisfy { $0.isTransient })
        #expect(
            ![Reason.newerStore, .data, .damaged, .notPlannable, .notWritable, .failed].contains { $0.isTransient })
    }

    private func inspection(_ state: StoreInspection.State) -> StoreInspection {
        StoreInspection(
            path: "s.sqlite", state: state, modelName: "Library", currentVersionName: "Library 3", migrationSteps: nil)
    }
}
