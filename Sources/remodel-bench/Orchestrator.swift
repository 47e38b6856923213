import Foundation
import RemodelSQLite

/// The parent process: generates each source store (in a child), copies it for every scenario,
/// runs each scenario in a child process of its own, and prints the table.
struct Orchestrator {
    let options: Options
    let executable: String
    let folder: String

    init(options: Options) throws {
        self.options = options
        self.executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        // In $TMPDIR when set: a store on another file system (one that clones files, say) is measured there.
        let parent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        self.folder = parent + "/remodel-bench-\(getpid())"
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(atPath: folder) } }
        log("remodel-bench: \(Machine.description); temporary stores in \(folder)")
        var results: [(size: Int, result: ScenarioResult)] = []
        var notes: [String] = [machineNote]
        log(machineNote)
        let selected = options.scenarios.compactMap(Catalog.scenario(named:))
        // The same binary doing nothing: what a library scenario's peak is "above idle" of (issue 29). Its VmHWM,
        // not ru_maxrss: a child started by `Process` can carry its parent's resident size in ru_maxrss.
        let idle = selected.contains(where: \.library) ? try child(["--scenario", "idle"] + childFlags) : nil
        if let idle {
            log(
                "idle child: VmHWM \(fixed(Double(idle.highWaterKiB) / 1024, 1)) MiB, mapped files \(fixed(idle.extra["mappedMiB"] ?? 0, 1)) MiB"
            )
        }
        for size in options.sizes {
            for model in SourceModel.allCases {
                let scenarios = selected.filter { $0.source == model }.map(\.name)
                guard !scenarios.isEmpty else { continue }
                guard size >= SourceModel.minimumObjects else {
                    log(
                        "\(pad(size, 9)) objects: \(scenarios.joined(separator: ", ")) skipped (\(model.rawValue) needs \(SourceModel.minimumObjects) objects or more)"
                    )
                    continue
                }
                results += try runScenarios(scenarios, on: model, size: size)
            }
            for model in ChainModel.allCases {
                let scenarios = selected.filter { $0.chain == model }
                guard !scenarios.isEmpty else { continue }
                if let reason = model.unavailable {
                    let note = "\(scenarios.map(\.name).joined(separator: ", ")): \(reason)"
                    if !notes.contains(note) { notes.append(note) }
                    log(note)
                    continue
                }
                results += try runChain(model, scenarios: scenarios, size: size)
            }
        }
        var launch: ScenarioResult?
        if options.scenarios.contains("launch") {
            let bundleFolder = "\(folder)/launch"
            let generated = try child(["--scenario", "generate-launch", "--store", bundleFolder])
            log(
                "launch: a bundle of \(Launch.versions) versions, \(Int(generated.extra["bundleBytes"] ?? 0)) bytes of XML, written in \(fixed(generated.seconds, 2)) s"
            )
            launch = try child(["--scenario", "launch", "--store", bundleFolder])
        }
        var validation: ScenarioResult?
        if options.scenarios.contains("validate") {
            validation = try child(["--scenario", "validate"])
        }
        var reading: ScenarioResult?
        if options.scenarios.contains("readVersions") {
            let bundle = try HistoryBundle.once(in: folder, log: log)
            var runs: [ScenarioResult] = []
            for _ in 0..<options.repeats {
                let run = try child(["--scenario", "read-versions", "--bundle", bundle])
                log("readVersions: " + ReadVersions.report(run) + "  load \(fixed(Machine.loadAverage, 1))")
                runs.append(run)
            }
            reading = runs.sorted { $0.extra["readCPU"] ?? 0 < $1.extra["readCPU"] ?? 0 }[runs.count / 2]
        }
        var fleet = ""
        if options.scenarios.contains("fleet") {
            fleet = try FleetBench.run(options.fleet, folder: folder, child: child, log: log)
        }
        var coreData = ""
        if options.scenarios.contains("coreData") {
            coreData = try CoreDataBench.run(
                sizes: options.sizes, repeats: options.repeats, folder: folder, child: child, log: log)
        }
        if let idle {
            for index in results.indices {
                results[index].result.extra["idlePeakMiB"] = Double(idle.highWaterKiB) / 1024
            }
        }
        let table =
            results.isEmpty && validation == nil && launch == nil && reading == nil && notes.isEmpty
            ? ""
            : Report(results: results, launch: launch, validation: validation, reading: reading, notes: notes).text
        print(table + fleet + coreData)
    }

    /// Generates `model`'s store of `size` objects, runs each scenario on fresh copies of it, and compares
    /// library and hand-written stores when `--verify` asks.
    private func runScenarios(_ scenarios: [String], on model: SourceModel, size: Int) throws -> [(
        size: Int, result: ScenarioResult
    )] {
        let given = options.sourceStores[model.rawValue + "-\(size)"]
        let source = given ?? "\(folder)/\(model.rawValue)-\(size).sqlite"
        if given == nil {
            let generated = try child([
                "--scenario", "generate", "--model", model.rawValue, "--objects", "\(size)", "--store", source,
            ])
            // The generator writes without syncing: written back now, not during the first scenario's run.
            try HandWritten.flush(source)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: source)[.size] as? Int) ?? 0
            log(
                "\(pad(size, 9)) objects: \(model.rawValue) store generated in \(fixed(generated.seconds, 2)) s (\(fixed(Double(bytes) / 1_048_576, 0)) MiB)"
            )
        }
        defer { if given == nil { removeStore(source) } }
        let (results, kept) = try runOnCopies(
            scenarios, of: source, size: size, keep: { options.verify && $0 != "policy" })
        if options.verify {
            for (library, limit) in Self.verifiedPairs {
                guard let first = kept[library], let second = kept[limit] else { continue }
                let check = try child(["--scenario", "verify", "--store", first, "--other", second])
                log("\(size) objects: \(library) vs \(limit): \(check.note)")
                if check.extra["problems"] != nil {
                    throw BenchError("\(library) and \(limit) differ at \(size) objects: \(check.note)")
                }
            }
        }
        for path in kept.values { removeStore(path) }
        return results
    }

    /// The chain scenarios of `model` at `size` objects: its bundle (the history one written once per run),
    /// a seeded store at its first version for the chains and one at the version before the current for the
    /// one-step yardstick, each scenario run on fresh copies.
    private func runChain(_ model: ChainModel, scenarios: [Scenario], size: Int) throws -> [(
        size: Int, result: ScenarioResult
    )] {
        let bundle = model == .history ? try HistoryBundle.once(in: folder, log: log) : model.bundlePath(in: folder)
        var results: [(size: Int, result: ScenarioResult)] = []
        for lastStep in [false, true] {
            let names = scenarios.filter { $0.lastStep == lastStep }.map(\.name)
            guard !names.isEmpty else { continue }
            let source = "\(folder)/\(model.rawValue)\(lastStep ? "-last" : "")-\(size).sqlite"
            let generated = try child(
                ["--scenario", "generate-seeded", "--bundle", bundle, "--objects", "\(size)", "--store", source]
                    + (lastStep ? ["--last-step"] : []))
            try HandWritten.flush(source)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: source)[.size] as? Int) ?? 0
            log(
                "\(pad(size, 9)) objects: \(model.rawValue) store at \(generated.note) seeded with \(Int(generated.extra["objects"] ?? 0)) objects in \(fixed(generated.seconds, 2)) s (\(fixed(Double(bytes) / 1_048_576, 1)) MiB)"
            )
            for (size, run) in try runOnCopies(names, of: source, size: size, arguments: ["--bundle", bundle]).results {
                let stepByStep = run.scenario.hasSuffix("StepByStep") ? ["--step-by-step"] : []
                let plan = try child(
                    ["--scenario", "plan-chain", "--store", source, "--bundle", bundle, "--no-trace"] + stepByStep)
                var result = run
                result.extra["steps"] = plan.extra["steps"]
                result.extra["passes"] = plan.extra["passes"]
                result.extra["planSeconds"] = plan.seconds
                result.extra["planPeakMiB"] = Double(plan.maxRSSKiB) / 1024
                results.append((size, result))
            }
            removeStore(source)
        }
        return results
    }

    /// Runs each scenario `--repeat` times in a child of its own, each time on a fresh copy of `source`, and
    /// keeps the median run; the copies of the scenarios `keep` names are kept (for `--verify`), by scenario.
    private func runOnCopies(
        _ scenarios: [String], of source: String, size: Int, arguments: [String] = [],
        keep: (String) -> Bool = { _ in false }
    ) throws -> (results: [(size: Int, result: ScenarioResult)], kept: [String: String]) {
        var results: [(size: Int, result: ScenarioResult)] = []
        var kept: [String: String] = [:]
        for scenario in scenarios {
            let copy = "\(folder)/\(scenario)-\(size).sqlite"
            var runs: [ScenarioResult] = []
            for _ in 0..<options.repeats {
                removeStore(copy)
                try FileManager.default.copyItem(atPath: source, toPath: copy)
                // Written back before timing: a copy's dirty pages would otherwise slow whichever scenario runs
                // next (at 5M objects the first one's own copy took ten times the second's).
                try HandWritten.flush(copy)
                runs.append(
                    try runScenario(
                        ["--scenario", scenario, "--objects", "\(size)", "--store", copy] + arguments + childFlags,
                        copy: copy, run: runs.count))
            }
            runs.sort { $0.seconds < $1.seconds }
            var result = runs[runs.count / 2]
            if runs.count > 1 {
                result.note = "median of \(runs.count): \(runs.map { fixed($0.seconds, 2) }.joined(separator: ", ")) s"
            }
            let loads = runs.compactMap { $0.extra["load1"] }
            result.extra["loadMin"] = loads.min()
            result.extra["loadMax"] = loads.max()
            result.maxRSSKiB = runs.map(\.maxRSSKiB).max() ?? result.maxRSSKiB
            result.highWaterKiB = runs.map(\.highWaterKiB).max() ?? result.highWaterKiB
            log(
                "\(pad(size, 9)) objects: \(scenario.padding(toLength: 17, withPad: " ", startingAt: 0)) \(fixed(result.seconds, 3)) s  peak \(fixed(Double(result.maxRSSKiB) / 1024, 1)) MiB (VmHWM \(fixed(Double(result.highWaterKiB) / 1024, 1)), SQLite heap \(fixed(result.extra["sqliteHeapMiB"] ?? 0, 1)))  load \(fixed(loads.min() ?? 0, 1))–\(fixed(loads.max() ?? 0, 1))  \(Report.parts(result))  \(IOTable.parts(result))"
            )
            results.append((size, result))
            if keep(scenario) { kept[scenario] = copy } else { removeStore(copy) }
        }
        return (results, kept)
    }

    /// The machine's memory, and the cgroup limit and cache state the runs have.
    private var machineNote: String {
        var note = "Machine: \(Machine.description), \(MachineMemory.description)"
        if let limit = options.memoryLimitBytes {
            note += "; each scenario's child in a memory cgroup limited to \(limit >> 20) MiB (page cache included)"
        }
        if options.cold { note += "; each run's copy of the store dropped from the page cache before it starts" }
        return note
    }

    /// Runs a scenario's child on `copy` (already there): its store first dropped from the page cache with
    /// `--cold`, the child in a memory cgroup of its own with `--memory-limit`, whose peak is then recorded.
    private func runScenario(_ arguments: [String], copy: String, run: Int) throws -> ScenarioResult {
        if options.cold { try PageCacheDrop.drop(copy) }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int) ?? 0
        guard let limit = options.memoryLimitBytes else {
            var result = try child(arguments)
            result.extra["storeMiB"] = Double(bytes) / 1_048_576
            return result
        }
        switch MemoryCgroup.make(name: "remodel-bench-\(getpid())-\(run)", limitBytes: limit) {
        case .failure(let reason):
            log("--memory-limit: \(reason); the run is not limited")
            var result = try child(arguments)
            result.extra["storeMiB"] = Double(bytes) / 1_048_576
            result.note += " (no cgroup: \(reason))"
            return result
        case .success(let cgroup):
            defer { cgroup.remove() }
            var result = try child(arguments + ["--cgroup", cgroup.path])
            result.extra["storeMiB"] = Double(bytes) / 1_048_576
            result.extra["memoryLimitMiB"] = Double(limit >> 20)
            result.extra["cgroupPeakMiB"] = Double(cgroup.peakBytes) / 1_048_576
            result.extra["cgroupLimitHits"] = Double(cgroup.limitHits)
            return result
        }
    }

    /// What the children are told of `--no-trace` and `--statements`.
    private var childFlags: [String] {
        (options.trace ? [] : ["--no-trace"]) + (options.statements.map { ["--statements", "\($0)"] } ?? [])
    }

    /// Library scenarios whose store must hold exactly what the hand-written one does.
    private static let verifiedPairs = [
        ("migrate", "limit"), ("migrate3", "limit3"), ("addAttribute", "addAttributeLimit"),
        ("oneOfTen", "oneOfTenLimit"),
    ]

    private func removeStore(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Runs this executable with `arguments` and returns the result it printed.
    private func child(_ arguments: [String]) throws -> ScenarioResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") })
        else {
            throw BenchError(
                "scenario \(arguments.joined(separator: " ")) failed (exit \(process.terminationStatus)): \(text)")
        }
        return try JSONDecoder().decode(ScenarioResult.self, from: Data(line.dropFirst("RESULT ".count).utf8))
    }
}

enum Machine {
    /// The one-minute load average (`/proc/loadavg`), as `uptime` prints it.
    static var loadAverage: Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return Double(text.split(separator: " ").first ?? "") ?? 0
    }

    static var description: String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            info.split(separator: "\n").first { $0.hasPrefix("model name") }.map {
                $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?"
            } ?? "unknown CPU"
        let kernel = ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "?")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return
            "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(model), Linux \(kernel), SQLite \(String(cString: sqlite3_libversion()))"
    }
}

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}

/// `value` right-aligned in `width` characters.
func pad(_ value: Int, _ width: Int) -> String {
    let text = "\(value)"
    return String(repeating: " ", count: max(0, width - text.count)) + text
}
