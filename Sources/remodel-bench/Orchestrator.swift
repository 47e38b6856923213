import Foundation

/// The parent process: generates each source store (in a child), copies it for every scenario,
/// runs each scenario in a child process of its own, and prints the table.
struct Orchestrator {
    let options: Options
    let executable: String
    let folder: String

    init(options: Options) throws {
        self.options = options
        self.executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        self.folder = "/tmp/remodel-bench-\(getpid())"
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(atPath: folder) } }
        log("remodel-bench: \(Machine.description); temporary stores in \(folder)")
        var results: [(size: Int, result: ScenarioResult)] = []
        let storeScenarios = options.scenarios.filter { $0 != "validate" && $0 != "fleet" }
        for size in options.sizes where !storeScenarios.isEmpty {
            let source = "\(folder)/source-\(size).sqlite"
            let generated = try child(["--scenario", "generate", "--objects", "\(size)", "--store", source])
            let bytes = (try? FileManager.default.attributesOfItem(atPath: source)[.size] as? Int) ?? 0
            log("\(pad(size, 9)) objects: source store generated in \(fixed(generated.seconds, 2)) s (\(fixed(Double(bytes) / 1_048_576, 0)) MiB)")
            var kept: [String: String] = [:]
            for scenario in storeScenarios {
                let copy = "\(folder)/\(scenario)-\(size).sqlite"
                var runs: [ScenarioResult] = []
                for _ in 0..<options.repeats {
                    removeStore(copy)
                    try FileManager.default.copyItem(atPath: source, toPath: copy)
                    runs.append(try child(["--scenario", scenario, "--objects", "\(size)", "--store", copy]))
                }
                runs.sort { $0.seconds < $1.seconds }
                var result = runs[runs.count / 2]
                if runs.count > 1 {
                    result.note = "median of \(runs.count): \(runs.map { fixed($0.seconds, 2) }.joined(separator: ", ")) s"
                }
                result.maxRSSKiB = runs.map(\.maxRSSKiB).max() ?? result.maxRSSKiB
                log("\(pad(size, 9)) objects: \(scenario.padding(toLength: 9, withPad: " ", startingAt: 0)) \(fixed(result.seconds, 2)) s  peak \(fixed(Double(result.maxRSSKiB) / 1024, 1)) MiB (VmHWM \(fixed(Double(result.highWaterKiB) / 1024, 1)))")
                results.append((size, result))
                if options.verify, scenario != "policy" { kept[scenario] = copy } else { removeStore(copy) }
            }
            if options.verify {
                for (library, limit) in [("migrate", "limit"), ("migrate3", "limit3")] {
                    guard let first = kept[library], let second = kept[limit] else { continue }
                    let check = try child(["--scenario", "verify", "--store", first, "--other", second])
                    log("\(size) objects: \(library) vs \(limit): \(check.note)")
                    if check.extra["problems"] != nil { throw BenchError("\(library) and \(limit) differ at \(size) objects: \(check.note)") }
                }
            }
            for path in kept.values { removeStore(path) }
            removeStore(source)
        }
        var validation: ScenarioResult?
        if options.scenarios.contains("validate") {
            validation = try child(["--scenario", "validate"])
        }
        var fleet = ""
        if options.scenarios.contains("fleet") {
            fleet = try FleetBench.run(options.fleet, folder: folder, child: child, log: log)
        }
        let table = results.isEmpty && validation == nil ? "" : Report(results: results, validation: validation).text
        print(table + fleet)
    }

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
            throw BenchError("scenario \(arguments.joined(separator: " ")) failed (exit \(process.terminationStatus)): \(text)")
        }
        return try JSONDecoder().decode(ScenarioResult.self, from: Data(line.dropFirst("RESULT ".count).utf8))
    }
}

enum Machine {
    static var description: String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = info.split(separator: "\n").first { $0.hasPrefix("model name") }.map {
            $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?"
        } ?? "unknown CPU"
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(model)"
    }
}

/// The printed table.
struct Report {
    let results: [(size: Int, result: ScenarioResult)]
    let validation: ScenarioResult?

    private static let phaseOrder = ["planning", "instances", "relationships", "validation", "replace"]
    private static let phaseShort = ["planning": "plan", "instances": "inst", "relationships": "rel", "validation": "valid", "replace": "repl"]

    var text: String {
        var lines: [String] = []
        lines.append("| objects | scenario | wall s | ratio | peak RSS MiB | phases / notes |")
        lines.append("| ---: | --- | ---: | --- | ---: | --- |")
        for (size, result) in results {
            let peers = results.filter { $0.size == size }.map(\.result)
            func seconds(_ name: String) -> Double? { peers.first { $0.scenario == name }?.seconds }
            var ratio = ""
            var notes: [String] = []
            switch result.scenario {
            case "migrate":
                if let limit = seconds("limit") { ratio = String(format: "%.2f× limit", result.seconds / limit) }
            case "migrate3":
                var parts: [String] = []
                if let single = seconds("migrate") { parts.append(String(format: "%.2f× single step", result.seconds / single)) }
                if let limit = seconds("limit3") { parts.append(String(format: "%.2f× limit3", result.seconds / limit)) }
                ratio = parts.joined(separator: ", ")
                notes.append("steps " + result.steps.map { String(format: "%.2f", $0) }.joined(separator: " + ") + " s")
            case "limit3":
                if let limit = seconds("limit") { ratio = String(format: "%.2f× limit", result.seconds / limit) }
            case "policy":
                let perSecond = result.extra["objectsPerSecond"] ?? 0
                let sql = result.extra["sqlObjectsPerSecond"] ?? 0
                ratio = String(format: "%.2f M obj/s", perSecond / 1e6)
                notes.append(
                    "\(Int(result.extra["people"] ?? 0)) Person; steady \(fixed((result.extra["steadyObjectsPerSecond"] ?? 0) / 1e6, 2)) M obj/s; "
                        + "\(fixed((result.extra["cpuObjectsPerSecond"] ?? 0) / 1e6, 2)) M obj per CPU-second (all threads)")
                notes.append("the same with one INSERT…SELECT: \(fixed(sql / 1e6, 2)) M obj/s (\(fixed(result.extra["sqlSeconds"] ?? 0, 2)) s)")
            default:
                break
            }
            if result.note.hasPrefix("median") { notes.append(result.note) }
            if !result.phases.isEmpty {
                notes.append(Self.phaseOrder.compactMap { phase in
                    result.phases[phase].map { "\(Self.phaseShort[phase] ?? phase) \(fixed(100 * $0 / result.seconds, 0))%" }
                }.joined(separator: " · "))
            }
            lines.append(
                "| \(size) | \(result.scenario) | \(fixed(result.seconds, 2)) | \(ratio) | \(fixed(Double(result.maxRSSKiB) / 1024, 1)) | \(notes.joined(separator: "; ")) |")
        }
        if let validation {
            if validation.note.hasPrefix("skipped") {
                lines.append("\nvalidate: \(validation.note)")
            } else {
                lines.append(
                    "\nvalidate (\(validation.note)): best of 5 \(fixed(validation.seconds, 3)) s, first run \(fixed(validation.extra["first"] ?? 0, 3)) s, "
                        + "\(Int(validation.extra["diagnostics"] ?? 0)) diagnostics, peak RSS \(fixed(Double(validation.maxRSSKiB) / 1024, 1)) MiB")
            }
        }
        return lines.joined(separator: "\n")
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
