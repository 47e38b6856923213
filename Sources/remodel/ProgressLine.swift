/// One line of a progress bar, fitted to a terminal's width: the bar and the percentage always,
/// then the stage, the item, the counts and the time left, each shortened and then dropped as the
/// terminal narrows.
struct ProgressLine {
    var fraction: Double
    /// What is being done, longest form first (`pass 1/1 (steps 1–2) objects`, `pass 1/1 objects`, `objects`).
    var stage: [String]
    /// The entity or file being worked on.
    var item: String?
    /// How much is done, longest form first (`30,000/80,000 rows`, `30,000/80,000`).
    var counts: [String] = []
    var secondsRemaining: Double?

    /// The widest bar, and the narrowest one kept while anything else is shown.
    private static let barWidth = (widest: 24, narrow: 16, narrowest: 10)
    /// The longest item kept once items are shortened.
    private static let shortItem = 12

    /// The line in at most `columns - 1` characters: a line as wide as the terminal would leave the
    /// cursor past its last column, where some terminals wrap.
    func rendered(columns: Int) -> String {
        let limit = max(columns - 1, 5)
        var layout = Layout(line: self)
        for shrink in Layout.shrinks {
            let text = layout.text
            if text.count <= limit { return text }
            shrink(&layout)
        }
        let text = layout.text
        return text.count <= limit ? text : String(text.prefix(limit))
    }

    /// The choices made while fitting the line.
    private struct Layout {
        var line: ProgressLine
        var bar = ProgressLine.barWidth.widest
        var stage = 0
        var counts = 0
        var shortItem = false
        var showItem = true
        var showCounts = true
        var showTime = true
        var showStage = true

        /// Each step makes the line shorter; they are taken in order until it fits.
        static let shrinks: [@Sendable (inout Layout) -> Void] = [
            { $0.bar = ProgressLine.barWidth.narrow },
            { $0.counts = 1 },
            { $0.stage = 1 },
            { $0.shortItem = true },
            { $0.showCounts = false },
            { $0.stage = 2 },
            { $0.showItem = false },
            { $0.bar = ProgressLine.barWidth.narrowest },
            { $0.showTime = false },
            { $0.showStage = false },
            { $0.bar = 0 },
        ]

        var text: String {
            let fraction = min(max(line.fraction, 0), 1)
            let filled = Int((fraction * Double(bar)).rounded(.down))
            let percent = "\(Int((fraction * 100).rounded(.down)))%"
            var parts = [
                String(repeating: "█", count: filled) + String(repeating: "░", count: bar - filled)
                    + (bar > 0 ? " " : "")
                    + String(repeating: " ", count: 4 - percent.count) + percent
            ]
            if showStage, !line.stage.isEmpty { parts.append(line.stage[min(stage, line.stage.count - 1)]) }
            if showItem, let item = line.item {
                parts.append(
                    shortItem && item.count > ProgressLine.shortItem
                        ? String(item.prefix(ProgressLine.shortItem - 1)) + "…" : item)
            }
            if showCounts, !line.counts.isEmpty { parts.append(line.counts[min(counts, line.counts.count - 1)]) }
            if showTime, let seconds = line.secondsRemaining { parts.append("ETA \(Int(seconds.rounded(.up)))s") }
            return parts.joined(separator: "  ")
        }
    }
}
