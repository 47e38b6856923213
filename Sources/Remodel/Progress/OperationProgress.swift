import Foundation

/// How far a long operation other than a migration is: filling a store from a seed file, an import, an
/// export, a validation of many files. The command line shows it as a bar on a terminal.
package struct OperationProgress: Sendable, Hashable {
    /// What `completed` and `total` count.
    package enum Unit: String, Sendable, Hashable {
        case bytes, objects, files
    }

    /// What is being done, as a word: `importing`, `exporting`, `checking`.
    package var activity: String
    /// The entity or file being worked on, if any.
    package var item: String?
    package var completed: Int
    package var total: Int
    package var unit: Unit

    /// The fraction done, 0…1.
    package var fraction: Double {
        total > 0 ? min(1, Double(max(completed, 0)) / Double(total)) : 0
    }
}

/// Hands an operation's progress to an observer at most about 20 times a second, and always its first
/// and last values, so that reporting after every object costs little.
package final class OperationProgressReporter {
    private let observer: ((OperationProgress) -> Void)?
    private var last = -Double.infinity

    /// A reporter that calls `observer`; `nil` reports nothing.
    package init(_ observer: ((OperationProgress) -> Void)?) {
        self.observer = observer
    }

    /// Whether anyone is told: work done only for progress (counting what is to come) can be skipped.
    var isObserved: Bool { observer != nil }

    /// Reports a value (unless one was reported less than 50 ms ago and this one is not the last).
    package func report(_ activity: String, item: String?, completed: Int, total: Int, unit: OperationProgress.Unit) {
        guard let observer else { return }
        let now = MonotonicClock.seconds()
        guard completed == 0 || completed >= total || now - last >= 0.05 else { return }
        last = now
        observer(OperationProgress(activity: activity, item: item, completed: completed, total: total, unit: unit))
    }
}
