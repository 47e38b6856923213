/// The table of what each store scenario read from and wrote to storage (issue 44), beside its time and
/// memory: the kernel's counters of the child over the timed part (``IOCounters``), against its baseline's
/// in the same run, and each part's share.
struct IOTable {
    let results: [(size: Int, result: ScenarioResult)]

    var lines: [String] {
        let measured = results.filter { $0.result.extra["diskReadBytes"] != nil }
        guard !measured.isEmpty else { return [] }
        var lines = [
            "| objects | store MiB | scenario | wall s | CPU s | read from storage MiB (× baseline) | written to storage MiB (× baseline) | rchar / wchar MiB | peak RSS MiB | cgroup peak / limit MiB (limit hits) | load |",
            "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for (size, result) in measured {
            let baseline = Catalog.scenario(named: result.scenario)?.baseline.flatMap { name in
                results.first { $0.size == size && $0.result.scenario == name }?.result
            }
            func mebibytes(_ key: String, _ of: ScenarioResult = result) -> Double { (of.extra[key] ?? 0) / 1_048_576 }
            func versus(_ key: String) -> String {
                guard let baseline, let other = baseline.extra[key], other > 0 else { return "" }
                return " (\(fixed((result.extra[key] ?? 0) / other, 2))×)"
            }
            let cgroup =
                result.extra["memoryLimitMiB"].map { limit in
                    "\(fixed(result.extra["cgroupPeakMiB"] ?? 0, 0)) / \(fixed(limit, 0)) (\(Int(result.extra["cgroupLimitHits"] ?? 0)))"
                } ?? "–"
            lines.append(
                "| \(size) | \(fixed(result.extra["storeMiB"] ?? 0, 0)) | \(result.scenario) | \(fixed(result.seconds, 3)) | "
                    + "\(fixed(result.extra["cpuSeconds"] ?? 0, 3)) | \(fixed(mebibytes("diskReadBytes"), 1))\(versus("diskReadBytes")) | "
                    + "\(fixed(mebibytes("diskWriteBytes"), 1))\(versus("diskWriteBytes")) | "
                    + "\(fixed(mebibytes("readBytes"), 1)) / \(fixed(mebibytes("writtenBytes"), 1)) | "
                    + "\(fixed(Double(result.maxRSSKiB) / 1024, 1)) | \(cgroup) | \(Report.load(result)) |")
        }
        return lines
    }

    /// Each part's reads and writes from and to storage, MiB, in the parts' order: `I/O read/written MiB:
    /// copy 90.1/91.2 · phase1 0.0/40.3`.
    static func parts(_ result: ScenarioResult) -> String {
        let names = PhaseSplit.order.filter { result.extra["diskRead.\($0)"] != nil }
        guard !names.isEmpty else { return "" }
        let total =
            "I/O read/written MiB \(fixed((result.extra["diskReadBytes"] ?? 0) / 1_048_576, 1))/\(fixed((result.extra["diskWriteBytes"] ?? 0) / 1_048_576, 1))"
        let list = names.compactMap { name -> String? in
            let read = (result.extra["diskRead.\(name)"] ?? 0) / 1_048_576
            let written = (result.extra["diskWrite.\(name)"] ?? 0) / 1_048_576
            guard read >= 0.05 || written >= 0.05 else { return nil }
            return "\(name) \(fixed(read, 1))/\(fixed(written, 1))"
        }
        return total + (list.isEmpty ? "" : ": " + list.joined(separator: " · "))
    }
}
