import Foundation
import Remodel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How `migrate` and `demo` show progress.
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

/// Prints progress values on standard error, as a bar or as JSON lines.
final class ProgressPrinter: @unchecked Sendable {
    private let style: ProgressStyle
    private let lock = NSLock()
    private var lastLine = ""

    init(style: ProgressStyle) {
        self.style = style.resolved
    }

    func print(_ progress: MigrationProgress) {
        lock.lock()
        defer { lock.unlock() }
        switch style {
        case .json:
            FileHandle.standardError.write(Data((progress.jsonLine + "\n").utf8))
        case .bar:
            let line = Self.bar(progress)
            guard line != lastLine else { return }
            lastLine = line
            let end = progress.phase == .finished ? "\n" : ""
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line + end).utf8))
        case .auto, .none:
            return
        }
    }

    /// Ends a bar left on screen (after a failure).
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if style == .bar, !lastLine.isEmpty { FileHandle.standardError.write(Data("\n".utf8)) }
        lastLine = ""
    }

    static func bar(_ progress: MigrationProgress) -> String {
        let width = 24
        let filled = Int((progress.fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let percent = String(format: "%3d%%", Int((progress.fraction * 100).rounded(.down)))
        let phase: String
        switch progress.phase {
        case .planning: phase = "planning"
        case .instances: phase = "1/3 objects"
        case .relationships: phase = "2/3 relationships"
        case .validation: phase = "3/3 validation"
        case .replace: phase = "replacing"
        case .finished: phase = "done"
        }
        var parts = ["\(bar) \(percent)", "step \(progress.step)/\(progress.steps) \(phase)"]
        if let entity = progress.entity { parts.append(entity) }
        if progress.total > 0, progress.phase == .instances {
            parts.append("\(grouped(progress.completed))/\(grouped(progress.total)) rows")
        }
        if let eta = progress.estimatedSecondsRemaining, progress.phase != .finished {
            parts.append(String(format: "ETA %.0fs", eta.rounded(.up)))
        }
        return parts.joined(separator: "  ")
    }

    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }
}
