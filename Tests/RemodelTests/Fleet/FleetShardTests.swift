import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Shards run as separate processes, as job runners run them: together they cover every store
/// exactly once. The GNU parallel and Kubernetes examples of docs/FLEET.md are run as written.
@Suite(.tags(.slow), .skippable(.slow)) struct FleetShardTests {
    private static let docs = MigrationFixtures.packageRoot + "/docs/FLEET.md"

    /// Two shards at once, each given the list in another order; one names its shard, the other
    /// takes it from a Slurm job array's environment (tasks numbered from 1).
    @Test func twoShardsAsTwoProcessesCoverEveryStoreOnce() throws {
        let fleet = try FleetFolder()
        try fleet.add(.library1, count: 40)
        try fleet.add(.current, count: 10)
        let list = fleet.allPaths
        let forward = try fleet.folder.write(list.joined(separator: "\n") + "\n", to: "forward.txt")
        let backward = try fleet.folder.write(list.reversed().joined(separator: "\n") + "\n", to: "backward.txt")
        let first = try FleetCheck.start(
            [],
            [
                "--stores-from", forward, "--shard", "0/2", "--report", fleet.folder.file("shard-0.jsonl"),
                "--progress", "none",
            ])
        let second = try FleetCheck.start(
            [],
            [
                "--stores-from", backward, "--shard", "auto", "--report", fleet.folder.file("shard-1.jsonl"),
                "--progress", "none",
            ],
            environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "2"])
        for outcome in [first.wait(), second.wait()] { #expect(outcome.status == 0, "\(outcome)") }
        let reports = try (0..<2).map { try FleetCheck.report(fleet.folder.file("shard-\($0).jsonl")) }
        #expect(reports.map(\.count) == [25, 25])
        try expectEveryStoreDoneOnce(fleet, reports: reports)
    }

    /// The manifest of docs/FLEET.md: its container's command, once per completion index, all at
    /// once, with `/data` and `/app` pointing at a test folder and this repository.
    @Test func theKubernetesManifestCoversEveryStoreOnce() throws {
        let manifest = try Self.block(containing: "kind: Job")
        let completions = try #require(
            manifest.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("completions:") }
                .flatMap {
                    Int($0.split(separator: ":")[1].split(separator: "#")[0].trimmingCharacters(in: .whitespaces))
                })
        let commandLine = try #require(manifest.split(separator: "\n").first { $0.contains("command: [") })
        let json = String(commandLine[commandLine.firstIndex(of: "[")!...])
        let command = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
        #expect(command.prefix(2) == ["sh", "-c"])
        #expect(command[2].contains("--shard auto/\(completions) "), "the shard count is the Job's completions")

        let fleet = try FleetFolder()
        try fleet.add(.library1, count: 30)
        try fleet.add(.library2, count: 10)
        _ = try fleet.folder.write(fleet.allPaths.joined(separator: "\n") + "\n", to: "stores.txt")
        let script = command[2].replacingOccurrences(of: "/data/", with: fleet.folder.path + "/")
            .replacingOccurrences(of: "/app/", with: MigrationFixtures.packageRoot + "/")
        let pods = try (0..<completions).map { index in
            try Reliability.Child(
                URL(fileURLWithPath: "/bin/sh"), ["-c", script],
                environment: ["JOB_COMPLETION_INDEX": "\(index)", "PATH": try Self.path()])
        }
        for pod in pods.map({ $0.wait() }) { #expect(pod.status == 0, "\(pod)") }
        let reports = try (0..<completions).map {
            try FleetCheck.report(fleet.folder.file("reports/shard-\($0).jsonl"))
        }
        try expectEveryStoreDoneOnce(fleet, reports: reports)
    }

    /// The GNU parallel example of docs/FLEET.md: run by `parallel` when it is installed, else the same
    /// command lines, one per argument after `:::`, from a plain shell loop.
    @Test func theGNUParallelExampleCoversEveryStoreOnce() throws {
        let example = try Self.block(containing: "parallel ")
        let lines = example.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("parallel ") })
        let joined = lines[start...].joined(separator: "\n").replacingOccurrences(of: "\\\n", with: " ")
        let words = joined.split(whereSeparator: \.isWhitespace).map(String.init)
        let remodel = try #require(words.firstIndex(of: "remodel"))
        let separator = try #require(words.firstIndex(of: ":::"))
        let template = words[remodel..<separator].joined(separator: " ")
        let shards = Array(words[(separator + 1)...])

        let fleet = try FleetFolder()
        try fleet.add(.library1, count: 30)
        try fleet.add(.current, count: 10)
        _ = try fleet.folder.write(fleet.allPaths.joined(separator: "\n") + "\n", to: "stores.txt")
        for name in ["Models", "Mappings"] {
            try FileManager.default.createSymbolicLink(
                atPath: fleet.folder.file(name), withDestinationPath: MigrationFixtures.packageRoot + "/" + name)
        }
        let installed = try Self.path().split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/parallel")
        }
        // Without GNU parallel, the command line it would run for each argument, each by `sh`, all at once.
        // (Not one `sh` script with `&` and `wait`: a shell started from a test process may inherit a blocked
        // SIGCHLD and then wait forever.)
        let scripts = installed ? [joined] : shards.map { template.replacingOccurrences(of: "{}", with: $0) }
        let runs = try scripts.map { script in
            try Reliability.Child(
                URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: ["PATH": try Self.path()],
                directory: fleet.folder.path)
        }
        for run in runs.map({ $0.wait() }) { #expect(run.status == 0, "\(installed ? "parallel" : "shell"): \(run)") }
        let reports = try shards.map { try FleetCheck.report(fleet.folder.file("reports/shard-\($0).jsonl")) }
        try expectEveryStoreDoneOnce(fleet, reports: reports)
    }

    /// Every store in exactly one report, done, and migrated once.
    private func expectEveryStoreDoneOnce(_ fleet: FleetFolder, reports: [[FleetCheck.Line]]) throws {
        let paths = reports.flatMap { $0.map(\.path) }
        #expect(
            paths.count == fleet.allPaths.count,
            "each store once: \(paths.count) lines for \(fleet.allPaths.count) stores")
        #expect(Set(paths) == Set(fleet.allPaths))
        #expect(reports.allSatisfy { !$0.isEmpty }, "every shard has stores")
        for line in reports.joined() { #expect(line.outcome == "migrated" || line.outcome == "current", "\(line)") }
        for store in fleet.allPaths {
            #expect(try FleetCheck.history(store) == FleetCheck.migratedOnceFromLibrary, "\(store)")
        }
    }

    /// The fenced block of docs/FLEET.md that holds `text`.
    private static func block(containing text: String) throws -> String {
        let document = try String(contentsOfFile: docs, encoding: .utf8)
        let blocks = document.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        return try #require(blocks.first { $0.contains(text) }, "no block with \(text) in \(docs)")
    }

    /// `PATH` with the built `remodel` first.
    private static func path() throws -> String {
        let executable: URL = try #require(Reliability.executable, "build the remodel product first (swift build)")
        return executable.deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }
}
