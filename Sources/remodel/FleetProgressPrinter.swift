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
            write(report.description + "\n", error: false)
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

    /// The fleet's bar, at most `width - 1` columns, with the cells of any bar at that width: the rate goes
    /// first, then the time left; the store count and the failures stay.
    static func bar(_ tally: FleetTally, at now: Date, width: Int) -> String {
        let fraction = tally.total > 0 ? Double(tally.finished) / Double(tally.total) : 1
        var stores = "\(ProgressPrinter.grouped(tally.finished))/\(ProgressPrinter.grouped(tally.total)) stores"
        if tally.failures > 0 { stores += "  \(ProgressPrinter.grouped(tally.failures)) failed" }
        let rate = "\(ProgressPrinter.grouped(Int(tally.objectsPerSecond(at: now).rounded()))) obj/s"
        let remaining = tally.finished < tally.total ? tally.estimatedSecondsRemaining(at: now) : nil
        return ProgressBar(fraction: fraction, stage: [stores], counts: [rate], secondsRemaining: remaining)
            .rendered(columns: width)
    }
}
