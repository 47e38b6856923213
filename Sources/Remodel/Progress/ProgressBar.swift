/// One frame of the progress bar `remodel` draws on a terminal, fitted to its width.
///
/// The bar's cells depend on the terminal's width alone (``cells(columns:)``), so the bar keeps its size
/// from frame to frame; the text beside it — the percentage, the stage, the item, the counts and the time
/// left — is shortened and then dropped, in that order from the end, until the line fits.
package struct ProgressBar: Sendable, Hashable {
    package var fraction: Double
    /// What is being done, longest form first (`step 2/3 (pass 1/2) relationships`, `step 2/3 relationships`,
    /// `relationships`): the first form is shortened to the second, the second to the third.
    package var stage: [String]
    /// The entity or file being worked on.
    package var item: String?
    /// How much is done, longest form first (`30,000/80,000 rows checked`, `30,000/80,000`).
    package var counts: [String] = []
    package var secondsRemaining: Double?

    /// The longest item kept once items are shortened.
    private static let shortItem = 12

    package init(
        fraction: Double, stage: [String], item: String? = nil, counts: [String] = [], secondsRemaining: Double? = nil
    ) {
        self.fraction = fraction
        self.stage = stage
        self.item = item
        self.counts = counts
        self.secondsRemaining = secondsRemaining
    }

    /// The bar's cells on a terminal `columns` wide: a fifth of the width, from 10 to 24 cells.
    package static func cells(columns: Int) -> Int {
        min(24, max(10, columns / 5))
    }

    /// The line in at most `columns - 1` characters: a line as wide as the terminal would leave the cursor
    /// past its last column, where some terminals wrap.
    package func rendered(columns: Int) -> String {
        let limit = max(columns - 1, 5)
        let fraction = min(max(self.fraction, 0), 1)
        // The bar keeps its cells for this width; only a terminal too narrow for it and the percentage loses it.
        let cells = Self.cells(columns: columns) + 5 <= limit ? Self.cells(columns: columns) : 0
        let filled = Int((fraction * Double(cells)).rounded(.down))
        let percent = "\(Int((fraction * 100).rounded(.down)))%"
        let bar =
            String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
            + (cells > 0 ? " " : "") + String(repeating: " ", count: 4 - percent.count) + percent
        var layout = Layout(line: self)
        for shrink in Layout.shrinks {
            let text = ([bar] + layout.parts).joined(separator: "  ")
            if text.count <= limit { return text }
            shrink(&layout)
        }
        let text = ([bar] + layout.parts).joined(separator: "  ")
        return String(text.prefix(limit))
    }

    /// The choices made while fitting the text beside the bar.
    private struct Layout {
        var line: ProgressBar
        var stage = 0
        var counts = 0
        var shortItem = false
        var showItem = true
        var showCounts = true
        var showTime = true
        var showStage = true

        /// Each step makes the text shorter; they are taken in order until the line fits.
        /// The plan's step goes late: without it, the second step of a pass would look like a restart.
        static let shrinks: [@Sendable (inout Layout) -> Void] = [
            { $0.counts = 1 },
            { $0.stage = 1 },
            { $0.shortItem = true },
            { $0.showCounts = false },
            { $0.showItem = false },
            { $0.showTime = false },
            { $0.stage = 2 },
            { $0.showStage = false },
        ]

        var parts: [String] {
            var parts: [String] = []
            if showStage, !line.stage.isEmpty { parts.append(line.stage[min(stage, line.stage.count - 1)]) }
            if showItem, let item = line.item {
                parts.append(
                    shortItem && item.count > ProgressBar.shortItem
                        ? String(item.prefix(ProgressBar.shortItem - 1)) + "…" : item)
            }
            if showCounts, !line.counts.isEmpty { parts.append(line.counts[min(counts, line.counts.count - 1)]) }
            if showTime, let seconds = line.secondsRemaining { parts.append("ETA " + ProgressBar.duration(seconds)) }
            return parts
        }
    }
}

extension ProgressBar {
    /// The frame for a migration's progress. The stage names the phase as ``MigrationProgress/Phase`` does,
    /// after the plan's step (`step 2/3`) when there are several, and the pass (`pass 1/2`) when some pass
    /// runs several steps; the counts say what they count.
    package init(_ progress: MigrationProgress) {
        let phase = progress.phase.rawValue
        var stage = [phase, phase, phase]
        if progress.phase == .waiting {
            let other = "\(Int((Double(progress.completed) / Double(max(progress.total, 1)) * 100).rounded(.down)))%"
            stage = [
                "waiting for another process's migration of this store (\(other) done)",
                "waiting for another process's migration (\(other))", "waiting (\(other))",
            ]
            self.init(fraction: progress.fraction, stage: stage)
            return
        }
        if progress.phase != .planning, progress.steps > 1 {
            let step = "step \(progress.step)/\(progress.steps)"
            let pass =
                progress.passes > 1 && progress.passes < progress.steps
                ? " (pass \(progress.pass)/\(progress.passes))" : ""
            stage = ["\(step)\(pass) \(phase)", "\(step) \(phase)", phase]
        }
        var counts: [String] = []
        if progress.total > 1, let unit = Self.unit[progress.phase] {
            let done = "\(groupedDigits(progress.completed))/\(groupedDigits(progress.total))"
            counts = ["\(done) \(unit)", done]
        }
        self.init(
            fraction: progress.fraction, stage: stage, item: progress.entity, counts: counts,
            secondsRemaining: progress.phase == .finished ? nil : progress.estimatedSecondsRemaining)
    }

    /// What each phase's `completed` and `total` count.
    private static let unit: [MigrationProgress.Phase: String] = [
        .instances: "objects", .relationships: "rows linked", .indexes: "rows indexed", .validation: "rows checked",
    ]

    /// The frame for another long operation (an import, an export, a validation).
    package init(_ progress: OperationProgress, secondsRemaining: Double?) {
        var counts: [String]
        switch progress.unit {
        case .bytes:
            counts = ["\(Self.megabytes(progress.completed))/\(Self.megabytes(progress.total)) MB"]
        case .objects, .files:
            let done = "\(groupedDigits(progress.completed))/\(groupedDigits(progress.total))"
            counts = ["\(done) \(progress.unit.rawValue)", done]
        }
        self.init(
            fraction: progress.fraction, stage: [progress.activity], item: progress.item, counts: counts,
            secondsRemaining: secondsRemaining)
    }

    /// `45s`, `2m05s`, `1h02m`.
    package static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m\(twoDigits(whole % 60))s" }
        return "\(whole / 3600)h\(twoDigits(whole / 60 % 60))m"
    }

    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
