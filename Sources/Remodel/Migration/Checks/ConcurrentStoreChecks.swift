import Foundation
internal import RemodelSQLite

/// The checks of phase 3 that look at a step's store as a whole — probes of its join tables, then
/// SQLite's own check (``MigrationOptions/IntegrityCheck``) — run on a thread of their own through a
/// second, read-only connection while the entities' checks run on the step's connection. They only
/// read, and nothing writes the store until phase 3 is over, so the two share the machine's cores
/// instead of taking turns.
///
/// Call ``results()`` for what they found, or ``stop()`` when it is no longer wanted; either returns
/// only once the thread has closed its connection.
final class ConcurrentStoreChecks: @unchecked Sendable {
    /// The probes' answers, in order, and SQLite's findings in its own words (none when the store is sound).
    struct Results {
        var answers: [Bool]
        var findings: [String]
    }

    // `running` and `stopped` are guarded by `lock`.
    private let lock = NSLock()
    private var checks: BackgroundThread<Results>?
    /// The thread's connection while it checks: `sqlite3_interrupt` may be called from any thread
    /// while the connection is open, and it stays open until this is cleared.
    private var running: OpaquePointer?
    private var stopped = false

    /// Starts the probes, then `check`, on the store at `path`.
    init(path: String, probes: [TableScan.Probe], pragmas: [String]) {
        checks = BackgroundThread { [self] () throws(RemodelError) -> Results in
            try run(path: path, probes: probes, pragmas: pragmas)
        }
    }

    private func run(path: String, probes: [TableScan.Probe], pragmas: [String]) throws(RemodelError) -> Results {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        // It reads every page once: a small cache of its own keeps the process's memory as it was.
        try connection.execute("PRAGMA cache_size = \(PageCaches.scanPages)")
        return try withExtendedLifetime(connection) { () throws(RemodelError) -> Results in
            let started = lock.locked { () -> Bool in
                if !stopped { running = connection.handle }
                return !stopped
            }
            defer { lock.locked { running = nil } }
            // An interrupt reaches only the statement running when it comes: look before each one.
            let stoppedResults = Results(answers: [], findings: [])
            guard started else { return stoppedResults }
            var answers: [Bool] = []
            for probe in probes {
                if lock.locked({ stopped }) { return stoppedResults }
                answers.append(try TableScan.ask(probe, connection))
            }
            var findings: [String] = []
            for pragma in pragmas {
                if lock.locked({ stopped }) { return stoppedResults }
                findings += try connection.rows(pragma).compactMap { row -> String? in
                    guard case .text(let text) = row[0], text != "ok" else { return nil }
                    return text
                }
            }
            return Results(answers: answers, findings: findings)
        }
    }

    /// What the checks found, once they are done.
    /// - Throws: ``/RemodelModel/RemodelError`` when they could not run.
    func results() throws(RemodelError) -> Results {
        try checks?.wait().get() ?? Results(answers: [], findings: [])
    }

    /// Interrupts the checks if they are still running and waits for their thread to let go of the store.
    func stop() {
        lock.locked {
            stopped = true
            if let running { sqlite3_interrupt(running) }
        }
        checks?.wait()
    }
}
