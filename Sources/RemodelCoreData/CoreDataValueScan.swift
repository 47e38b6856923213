import Foundation
import Remodel

/// The value checks of an import, made ahead of the copy where a core is free: on a thread and a
/// connection of its own, the scan reads the Core Data tables in the copy's ranges of keys, ahead of
/// the range the copy is on, for a row the copy with the checks in it would refuse
/// (``CoreDataTableCopier/problem(_:)``: the same checks on the same values). A range where every
/// value passes is vouched for, and the copy takes it without the checks; any other range (one the
/// scan has not reached, one with a value to refuse, any after the scan stopped on an error) the copy
/// checks itself, as it always has, stopping at the first value Remodel cannot hold and naming it.
///
/// So each value is checked once, by the same SQL, in the same order of what the import meets: the
/// scan only moves checks off the copy's thread (issue 32, where they were 0.145 s of the 0.165 s
/// between the import and the hand-written floor). Where the other core is busy, the scan falls
/// behind, skips to just ahead of the copy again, and the copy checks the ranges it skipped; where its
/// thread gets too little of a core (``leastShareOfACore``), it stops.
final class CoreDataValueScan: @unchecked Sendable {
    /// One range of keys of one table, as the copy takes them (``CoreDataTableCopier/ranges(from:to:)``).
    struct Range: Sendable, Hashable {
        var table: String
        var start: Int64
        var end: Int64
    }

    /// How the copy goes with the scan.
    enum Pace: Sendable {
        /// The copy takes a range unchecked where the scan is past it and vouched for it, and checks
        /// it itself otherwise: it never waits.
        case whereAhead
        /// The copy waits for the scan to be past each range (tests: every range the scan vouches for
        /// is then copied unchecked).
        case waitedFor
    }

    let ranges: [Range]
    let pace: Pace
    private let index: [Range: Int]
    // Guarded by `condition`: the range the copy is on, the next range the scan looks at (those before
    // it are decided), whether the scan is over, the ranges it vouches for.
    private let condition = NSCondition()
    private var copying = -1
    private var scanning = 0
    private var over = false
    private var vouched: Set<Int> = []
    private var thread: BackgroundThread<Void>?

    /// Starts the scan of `ranges` (in the order the copy takes them) of `tables`.
    init(store: CoreDataSource.Opening, tables: [CoreDataMapping.Table], ranges: [Range], pace: Pace = .whereAhead) {
        self.ranges = ranges
        self.pace = pace
        var index: [Range: Int] = [:]
        for (position, range) in ranges.enumerated() { index[range] = position }
        self.index = index
        let key = CoreDataName.primaryKey
        let queries = Dictionary(
            tables.map { table in
                (
                    table.source,
                    "SELECT 1 FROM main.\(quoteIdentifier(table.source)) AS s WHERE s.\(key) >= ? AND s.\(key) < ? AND (\(CoreDataTableCopier.problem(table))) LIMIT 1"
                )
            },
            uniquingKeysWith: { first, _ in first })
        thread = BackgroundThread { [self] () throws(RemodelError) in
            defer { locked { over = true } }
            try scan(store, queries)
        }
    }

    /// Called by the copy as it starts a range: whether every value of it passed the scan's checks (the
    /// copy then takes it without them).
    func take(_ range: Range) -> Bool {
        guard let position = index[range] else { return false }
        condition.lock()
        defer { condition.unlock() }
        if pace == .waitedFor {
            while !over && scanning <= position { condition.wait() }
        }
        copying = max(copying, position)
        return vouched.contains(position)
    }

    /// Runs `body` holding the condition's lock, then wakes a copy waiting for the scan.
    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }

    /// Stops the scan (the copy is past every range) and waits for its thread.
    func finish() {
        locked { copying = ranges.count }
        _ = thread?.wait()
    }

    /// Waits for the scan to end by itself, at the last range or at one with a value to refuse, and
    /// returns the ranges it vouched for (tests read what it found).
    func vouchedWhenDone() -> [Range] {
        _ = thread?.wait()
        return locked { vouched.sorted().map { ranges[$0] } }
    }

    /// The least share of a core the scan's thread must get while it reads a range: with less, twice
    /// in a row, it is sharing a core (with the copy or another program), where it would slow the copy
    /// down by more than it saves it, so it stops and leaves the checks to the copy (issue 32, session 8:
    /// with no core free, the import took 1.35 s where the checks in the copy take 1.25 s).
    static let leastShareOfACore = 0.75

    /// Vouches for one range after another, each just ahead of the copy, until a range holds a value
    /// to refuse, the copy is past them all, or the thread keeps getting too little of a core. An error
    /// ends the scan: the copy checks what is left.
    private func scan(_ store: CoreDataSource.Opening, _ queries: [String: String]) throws(RemodelError) {
        let connection = try store.connection()
        // One pass over each table: the pages are not read again, so a small cache does.
        try connection.execute("PRAGMA cache_size = -256")
        var statements: [String: SQLiteStatement] = [:]
        var next = 0
        var starved = 0
        while true {
            let position = locked { () -> Int in
                scanning = max(next, copying + 1)
                return scanning
            }
            guard position < ranges.count else { return }
            let range = ranges[position]
            guard let sql = queries[range.table] else { return }
            let statement: SQLiteStatement
            if let prepared = statements[range.table] {
                statement = prepared
            } else {
                statement = try connection.prepare(sql)
                statements[range.table] = statement
            }
            try statement.bind([.integer(range.start), .integer(range.end)])
            let (wall, cpu) = (MonotonicClock.seconds(), ThreadCPUClock.seconds())
            let found = try statement.step()
            statement.reset()
            if found { return }
            let share =
                (ThreadCPUClock.seconds() - cpu) / max(MonotonicClock.seconds() - wall, 1e-9)
            starved = share < Self.leastShareOfACore ? starved + 1 : 0
            if pace == .whereAhead, starved >= 2 { return }
            next = position + 1
            locked {
                vouched.insert(position)
                scanning = next
            }
        }
    }
}
