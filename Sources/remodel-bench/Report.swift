/// The printed table (Markdown): each scenario's median time, its ratio against its baseline with the
/// target, its peak memory against the memory target, the load average, where the time went and what
/// SQLite held.
struct Report {
    let results: [(size: Int, result: ScenarioResult)]
    let launch: ScenarioResult?
    let validation: ScenarioResult?
    /// `readVersions`' median child, when it ran.
    var reading: ScenarioResult?
    /// Scenarios skipped, and why.
    var notes: [String] = []

    var text: String {
        var lines: [String] = []
        if !results.isEmpty {
            lines.append(contentsOf: table)
        }
        let io = IOTable(results: results).lines
        if !io.isEmpty { lines.append("\n" + io.joined(separator: "\n")) }
        for note in notes { lines.append("\n" + note) }
        if let launch { lines.append("\n" + Launch.report(launch)) }
        if let reading { lines.append("\n" + ReadVersions.report(reading)) }
        if let validation {
            if validation.note.hasPrefix("skipped") {
                lines.append("\nvalidate: \(validation.note)")
            } else {
                lines.append(
                    "\nvalidate (\(validation.note)): best of 5 \(fixed(validation.seconds, 3)) s, first run \(fixed(validation.extra["first"] ?? 0, 3)) s, "
                        + "\(Int(validation.extra["diagnostics"] ?? 0)) diagnostics, peak RSS \(fixed(Double(validation.maxRSSKiB) / 1024, 1)) MiB"
                )
            }
        }
        return lines.joined(separator: "\n")
    }

    private var table: [String] {
        var lines: [String] = []
        lines.append(
            "| objects | scenario | wall s | ratio (target) | peak RSS MiB (≤ \(fixed(Catalog.memoryTargetMiB, 0)); chains ≤ \(fixed(Catalog.chainMemoryTargetMiB, 0))) | load | parts of the wall time; memory; notes |"
        )
        lines.append("| ---: | --- | ---: | --- | ---: | --- | --- |")
        for (size, result) in results {
            let peers = results.filter { $0.size == size }.map(\.result)
            let scenario = Catalog.scenario(named: result.scenario)
            var notes: [String] = []
            let parts = Self.parts(result)
            if !parts.isEmpty { notes.append(parts) }
            if let cpu = result.extra["cpuSeconds"], result.scenario != "policy" {
                notes.append("CPU \(fixed(cpu, 3)) s (the child, all threads)")
            }
            if result.scenario == "migrate3", !result.steps.isEmpty {
                notes.append("steps " + result.steps.map { fixed($0, 2) }.joined(separator: " + ") + " s")
            }
            if result.scenario == "policy" { notes += policyNotes(result) }
            if scenario?.chain != nil { notes.append(Self.chain(result)) }
            let reads = Self.reads(result)
            if !reads.isEmpty { notes.append(reads) }
            let io = IOTable.parts(result)
            if !io.isEmpty { notes.append(io) }
            let memory = Self.memory(result)
            if !memory.isEmpty { notes.append(memory) }
            if result.note.hasPrefix("median") { notes.append(result.note) }
            let peak = Double(result.maxRSSKiB) / 1024
            let overMemory = scenario.map { $0.library && peak > $0.memoryTargetMiB } == true ? " (over)" : ""
            lines.append(
                "| \(size) | \(result.scenario) | \(fixed(result.seconds, 3)) | \(ratio(result, peers: peers, scenario: scenario)) | \(fixed(peak, 1))\(overMemory) | \(Self.load(result)) | \(notes.joined(separator: "; ")) |"
            )
        }
        return lines
    }

    private func ratio(_ result: ScenarioResult, peers: [ScenarioResult], scenario: Scenario?) -> String {
        func seconds(_ name: String) -> Double? { peers.first { $0.scenario == name }?.seconds }
        var parts: [String] = []
        if let baseline = scenario?.baseline, let other = seconds(baseline) {
            let value = result.seconds / other
            var text = "\(fixed(value, 2))× \(baseline)"
            if let target = scenario?.target {
                text += " (≤ \(fixed(target, 2))×: \(value <= target ? "met" : "not met"))"
            }
            if let cpu = result.extra["cpuSeconds"],
                let otherCPU = peers.first(where: { $0.scenario == baseline })?.extra["cpuSeconds"], otherCPU > 0
            {
                text += "; CPU \(fixed(cpu / otherCPU, 2))×"
            }
            parts.append(text)
        }
        if result.scenario == "migrate3", let limit = seconds("limit3") {
            parts.append("\(fixed(result.seconds / limit, 2))× limit3")
        }
        if result.scenario == "policy" {
            parts.append("\(fixed((result.extra["objectsPerSecond"] ?? 0) / 1e6, 2)) M obj/s")
        }
        return parts.joined(separator: ", ")
    }

    private func policyNotes(_ result: ScenarioResult) -> [String] {
        [
            "\(Int(result.extra["people"] ?? 0)) Person; steady \(fixed((result.extra["steadyObjectsPerSecond"] ?? 0) / 1e6, 2)) M obj/s; "
                + "\(fixed((result.extra["cpuObjectsPerSecond"] ?? 0) / 1e6, 2)) M obj per CPU-second (all threads)",
            "the same with one INSERT…SELECT: \(fixed((result.extra["sqlObjectsPerSecond"] ?? 0) / 1e6, 2)) M obj/s (\(fixed(result.extra["sqlSeconds"] ?? 0, 2)) s)",
        ]
    }

    /// A chain's steps, passes and what was planned before timing.
    static func chain(_ result: ScenarioResult) -> String {
        func count(_ key: String) -> Int { Int(result.extra[key] ?? 0) }
        return "\(count("steps")) steps in \(count("passes")) passes (\(count("passesRun")) reported by progress); "
            + "planning alone (another child) \(fixed(result.extra["planSeconds"] ?? 0, 3)) s, peak \(fixed(result.extra["planPeakMiB"] ?? 0, 1)) MiB; "
            + "\(count("objectsAfter")) objects after"
    }

    /// What a library migration read: the pages SQLite read, then the kernel's counters (read calls less
    /// the memory sampler's, bytes those calls returned and bytes fetched from the disk), as 4 KiB pages.
    static func reads(_ result: ScenarioResult) -> String {
        guard let pages = result.extra["pagesRead"] else { return "" }
        func pagesOf(_ key: String) -> String { fixed((result.extra[key] ?? 0) / 4096, 0) }
        let byConnection = result.extra.filter { $0.key.hasPrefix("pagesRead.") }.sorted { $0.value > $1.value }.prefix(
            4)
        let list = byConnection.map { "\($0.key.dropFirst("pagesRead.".count)) \(Int($0.value))" }.joined(
            separator: ", ")
        // Only a traced child counts SQLite's reads (`--no-trace` leaves the kernel's counters).
        let sqlite =
            result.extra["sqliteHeapMiB"] == nil
            ? "" : "SQLite \(Int(pages)) pages\(list.isEmpty ? "" : " (most: \(list))"); "
        return
            "reads: \(sqlite)kernel \(Int(result.extra["readCalls"] ?? 0)) read calls, \(pagesOf("readBytes")) pages' bytes, "
            + "\(pagesOf("diskReadBytes")) from disk"
    }

    /// The parts of the wall time in order, seconds and share: `copy 0.05 s 21%`.
    static func parts(_ result: ScenarioResult) -> String {
        let names = PhaseSplit.order.filter { result.phases[$0] != nil }
        return names.map { name in
            let seconds = result.phases[name] ?? 0
            return "\(name) \(fixed(seconds, 3)) \(fixed(100 * seconds / max(result.seconds, 1e-9), 0))%"
        }.joined(separator: " · ")
    }

    /// The process's own memory at its peak (heap, caches, stacks; not the mapped libraries), SQLite's
    /// heap high-water mark and each connection's largest page cache, MiB.
    static func memory(_ result: ScenarioResult) -> String {
        guard let own = result.extra["ownPeakMiB"] else { return "" }
        var text =
            "own memory peak \(fixed(own, 1)) (\(fixed(result.extra["startAnonymousMiB"] ?? 0, 1)) at start, RSS at start \(fixed(result.extra["startRSSMiB"] ?? 0, 1)))"
        if let heap = result.extra["sqliteHeapMiB"] {
            let caches = result.extra.filter { $0.key.hasPrefix("cacheMiB.") && $0.value >= 0.05 }.sorted {
                $0.value > $1.value
            }.prefix(4)
            let list = caches.map { "\($0.key.dropFirst("cacheMiB.".count)) \(fixed($0.value, 1))" }.joined(
                separator: ", ")
            text += ", SQLite heap peak \(fixed(heap, 1))" + (list.isEmpty ? "" : " (largest caches: \(list))")
            let other = result.extra.filter { $0.key.hasPrefix("schemaAndStatementsMiB.") && $0.value >= 0.05 }.sorted {
                $0.value > $1.value
            }.prefix(3)
            if !other.isEmpty {
                text +=
                    ", schemas and statements "
                    + other.map { "\($0.key.dropFirst("schemaAndStatementsMiB.".count)) \(fixed($0.value, 1))" }.joined(
                        separator: ", ")
            }
        }
        if let malloc = result.extra["ownPeakMallocMiB"], let sqlite = result.extra["ownPeakSQLiteMiB"] {
            text +=
                "; at the own peak: SQLite \(fixed(sqlite, 1)), rest of malloc \(fixed(malloc - sqlite, 1)), "
                + "neither (stacks, malloc's free pages) \(fixed(own - malloc, 1))"
        }
        if let mapped = result.extra["mappedMiB"] {
            let files = result.extra.filter { $0.key.hasPrefix("mappedMiB.") }.sorted { $0.value > $1.value }.prefix(4)
            text +=
                "; mapped files at the end \(fixed(mapped, 1)) ("
                + files.map { "\($0.key.dropFirst("mappedMiB.".count)) \(fixed($0.value, 1))" }.joined(separator: ", ")
                + ")"
        }
        if let idle = result.extra["idlePeakMiB"] {
            let above = Double(result.highWaterKiB) / 1024 - idle
            text += "; VmHWM \(fixed(above, 1)) MiB above the idle child's \(fixed(idle, 1))"
        }
        return text
    }

    /// The load average over the runs: `3.1` or `3.1–4.2`.
    static func load(_ result: ScenarioResult) -> String {
        let low = result.extra["loadMin"] ?? result.extra["load1"] ?? 0
        let high = result.extra["loadMax"] ?? low
        return abs(high - low) < 0.05 ? fixed(low, 1) : "\(fixed(low, 1))–\(fixed(high, 1))"
    }
}
