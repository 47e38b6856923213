import Foundation
import Remodel

/// Shows a fleet's progress on standard error — one bar for the whole fleet on a terminal, or JSON
/// lines (each store's progress and result, and the fleet's tally) — and prints the per-store lines
/// without breaking the bar.
final class FleetProgressPrinter: @unchecked Sendable {
    private let style: ProgressStyle
    private let lock = NSLock()
    private var tally: FleetTally
    private var barShown = false
    private var lastDraw = Date.distantPast
    /// The model errors already printed (guarded by `lock`).
    private var listedDiagnostics: Set<[Diagnostic]> = []

    init(style: ProgressStyle, tally: FleetTally) {
        self.style = style.resolved
        self.tally = tally
    }

    /// Before the first store: the empty bar, or the fleet's first JSON event.
    func start() {
        lock.lock()
        defer { lock.unlock() }
        switch style {
        case .json: write(tally.jsonLine() + "\n", error: true)
        case .bar: draw(force: true)
        case .auto, .none: break
        }
    }

    /// One store's progress, from the thread migrating it.
    func progress(store: String, _ value: MigrationProgress) {
        lock.lock()
        defer { lock.unlock() }
        switch style {
        case .json: write(value.jsonLine(store: store) + "\n", error: true)
        case .bar: draw(force: false)
        case .auto, .none: break
        }
    }

    /// A store finished: its line (on standard output when done, as `error: …` on standard error
    /// when not), then its JSON events or the bar again.
    func finished(_ result: StoreMigrationResult, tally: FleetTally) {
        lock.lock()
        defer { lock.unlock() }
        self.tally = tally
        clearBar()
        if let report = result.report {
            write(MigrateCommand.summary(report) + "\n", error: false)
        } else if let error = result.error {
            // A model's errors refuse every store alike: they are listed once, each store's line follows.
            var lines = failureText(error)
            if !error.diagnostics.isEmpty, !listedDiagnostics.insert(error.diagnostics).inserted {
                lines = "error: \(error.description)\n"
            }
            write(lines, error: true)
        }
        switch style {
        case .json: write(result.eventJSONLine + "\n" + tally.jsonLine() + "\n", error: true)
        case .bar: draw(force: true)
        case .auto, .none: break
        }
    }

    /// A line of the command's own, between bars.
    func say(_ line: String, error: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        clearBar()
        write(line + "\n", error: error)
        if style == .bar { draw(force: true) }
    }

    /// Leaves the last bar on screen, ended by a newline.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        guard style == .bar else { return }
        draw(force: true)
        write("\n", error: true)
        barShown = false
    }

    private func draw(force: Bool) {
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.2 else { return }
        lastDraw = now
        write("\r\u{1B}[2K" + Self.bar(tally, at: now, width: TerminalWidth.current), error: true)
        barShown = true
    }

    private func clearBar() {
        guard barShown else { return }
        write("\r\u{1B}[2K", error: true)
        barShown = false
    }

    private func write(_ text: String, error: Bool) {
        (error ? FileHandle.standardError : FileHandle.standardOutput).write(Data(text.utf8))
    }

    /// The fleet's bar, at most `width - 1` columns: the bar shrinks first, then the percentage,
    /// the rate and the time left go; the store count and the failures stay.
    static func bar(_ tally: FleetTally, at now: Date, width: Int) -> String {
        let room = max(1, width - 1)
        let fraction = tally.total > 0 ? Double(tally.finished) / Double(tally.total) : 1
        let count = "\(ProgressPrinter.grouped(tally.finished))/\(ProgressPrinter.grouped(tally.total)) stores"
        let failed = tally.failures > 0 ? ["\(ProgressPrinter.grouped(tally.failures)) failed"] : []
        var optional = [String(format: "%d%%", Int((fraction * 100).rounded(.down)))]
        optional.append("\(ProgressPrinter.grouped(Int(tally.objectsPerSecond(at: now).rounded()))) obj/s")
        if let eta = tally.estimatedSecondsRemaining(at: now), tally.finished < tally.total {
            optional.append("ETA " + duration(eta))
        }
        while true {
            let text = ([count] + optional + failed).joined(separator: "  ")
            let barWidth = min(30, room - text.count - 2)
            if barWidth >= 10 || (optional.isEmpty && barWidth >= 4) {
                let filled = Int((fraction * Double(barWidth)).rounded(.down))
                return String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "  "
                    + text
            }
            if optional.isEmpty { return String(text.prefix(room)) }
            // Drop the percentage first, then the rate, then the time left.
            optional.removeFirst()
        }
    }

    /// `45s`, `2m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
        return String(format: "%dh%02dm", whole / 3600, whole / 60 % 60)
    }
}
