import Foundation
import Remodel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the subcommands that draw a bar show progress (`--progress`).
enum ProgressStyle: String, CaseIterable {
    /// A bar on a terminal, nothing otherwise.
    case auto
    /// Always a bar (on standard error).
    case bar
    /// One JSON object a line on standard error.
    case json
    /// Nothing.
    case none

    /// The style to use once `auto` is resolved against standard error.
    var resolved: ProgressStyle {
        guard self == .auto else { return self }
        return isatty(STDERR_FILENO) == 1 ? .bar : .none
    }
}

/// Prints progress on standard error, as a bar redrawn in place on one line or as JSON lines.
final class ProgressPrinter: @unchecked Sendable {
    // `lastLine`, `lastDraw` and `started` are guarded by `lock`: migration progress comes from the migration's thread.
    private let style: ProgressStyle
    private let lock = NSLock()
    private var lastLine = ""
    private var lastStage: [String] = []
    private var lastDraw = Date.distantPast
    /// The time left of an operation other than a migration (a migration's comes with its progress).
    private var rate = ProgressRate()

    init(style: ProgressStyle) {
        self.style = style.resolved
    }

    /// A printer for a long operation that has no `--progress` option: a bar on a terminal unless `quiet`.
    func print(_ progress: MigrationProgress) {
        locked {
            switch style {
            case .json:
                FileHandle.standardError.write(Data((progress.jsonLine + "\n").utf8))
            case .bar:
                draw(ProgressBar(progress), final: progress.phase == .finished)
            case .auto, .none:
                return
            }
        }
    }

    func print(_ progress: OperationProgress) {
        locked {
            if style == .json {
                FileHandle.standardError.write(Data((Self.jsonLine(progress) + "\n").utf8))
                return
            }
            guard style == .bar else { return }
            if progress.completed == 0 && lastLine.isEmpty { rate = ProgressRate() }
            let remaining = rate.secondsRemaining(at: progress.fraction, now: MonotonicClock.seconds())
            draw(ProgressBar(progress, secondsRemaining: progress.fraction < 1 ? remaining : nil), final: false)
        }
    }

    /// One JSON object for an operation's progress: `activity`, `item`, `completed`, `total`, `unit`, `fraction`.
    static func jsonLine(_ progress: OperationProgress) -> String {
        struct Line: Encodable {
            var activity: String
            var item: String?
            var completed: Int
            var total: Int
            var unit: String
            var fraction: Double
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = Line(
            activity: progress.activity, item: progress.item, completed: progress.completed, total: progress.total,
            unit: progress.unit.rawValue, fraction: progress.fraction)
        return (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Ends a bar left on screen after a failure (the line stays), or once an operation is done
    /// (`clearing`: the line goes, and what follows is printed where it was).
    func finish(clearing: Bool = false) {
        locked {
            if style == .bar, !lastLine.isEmpty {
                FileHandle.standardError.write(Data((clearing ? "\r\u{1B}[2K" : "\n").utf8))
            }
            lastLine = ""
        }
    }

    /// Redraws the bar in place: back to the start of the line, clear it, write the new line, which is
    /// narrower than the terminal so that it never wraps onto a line of its own.
    private func draw(_ line: ProgressBar, final: Bool) {
        let now = Date()
        // At most 20 redraws a second, but a new phase or item is shown at once.
        let stage = line.stage + [line.item ?? ""]
        guard final || stage != lastStage || now.timeIntervalSince(lastDraw) >= 0.05 else { return }
        lastStage = stage
        let text = line.rendered(columns: TerminalWidth.current)
        guard text != lastLine || final else { return }
        lastLine = final ? "" : text
        lastDraw = now
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text + (final ? "\n" : "")).utf8))
    }

    static func grouped(_ number: Int) -> String {
        groupedDigits(number)
    }

    /// `1 object`, `3,000 objects`; `1 entity`, `2 entities` with `plural`.
    static func counted(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(groupedDigits(number)) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    /// Runs `body` holding `lock` (`NSLocking.withLock` needs macOS 14).
    private func locked(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body()
    }
}
