/// Runs the row checks of one entity as one scan of its table instead of one scan each: a first query
/// asks, for every check at once, whether any row fails it; only the checks that some row fails then
/// run on their own to name their first offenders, so the failures are exactly those of running every
/// check by itself, in the same order.
///
/// A check that a query of its own answers more cheaply than the scan (one driven by an index) carries
/// that query as its ``Probe``; probes are answered once per validation, however many checks share them.
final class TableScan {
    struct Check {
        var sql: String
        var condition: String
        /// A cheaper condition that every row meeting `condition` meets too, for the scan that asks whether
        /// any row fails (nil: `condition` itself).
        var probeCondition: String?
        /// The entity's name, then the condition's own parameters.
        var parameters: [SQLiteValue]
        /// Asks instead of the scan whether some row may fail the check; it may say yes when none does
        /// (the offenders query then finds nothing), never no when one does.
        var probe: Probe?
        var entity: String
        var property: String?
        var rule: MigrationRule
        var message: (SQLiteValue) -> String
    }

    /// A query whose one value is nonzero when some row may fail a check.
    struct Probe: Hashable {
        var sql: String
        var parameters: [SQLiteValue]
    }

    /// Conditions per probe query, well under SQLite's limits on result columns and expression size.
    static let checksPerProbe = 100

    private var table: String?
    private var entity = ""
    private var checks: [Check] = []
    private var answers: [Probe: Bool] = [:]

    /// Starts collecting the checks of `entity`, whose rows are in `table`.
    func begin(table: String, entity: String) {
        self.table = table
        self.entity = entity
        checks = []
    }

    /// Takes a check while collecting; `false` when it must run at once.
    func add(_ check: Check) -> Bool {
        guard table != nil, check.entity == entity, check.parameters.first == .text(entity) else { return false }
        checks.append(check)
        return true
    }

    /// Stops collecting and returns the offenders of the checks that some row fails.
    func finish(_ connection: SQLiteConnection, tables: TableReferences, limit: Int) throws(RemodelError)
        -> [ValidationFailure]
    {
        guard let table else { return [] }
        self.table = nil
        defer { checks = [] }
        var failing = Array(repeating: false, count: checks.count)
        let scanned = checks.indices.filter { checks[$0].probe == nil }
        var start = 0
        while start < scanned.count {
            let indices = scanned[start..<min(start + Self.checksPerProbe, scanned.count)]
            let group = indices.map { checks[$0] }
            start += Self.checksPerProbe
            // Clean tables are the rule: first ask whether any row fails any check (stopping at the first
            // one), which costs less than an aggregate per check and row; only then which checks fail.
            let any = group.map { "(\($0.probeCondition ?? $0.condition))" }.joined(separator: " OR ")
            let anyFails = try connection.scalar(
                "SELECT EXISTS (SELECT 1 FROM \(tables(table)) AS o WHERE o.\(StoreColumn.entity) = ? AND (\(any)))",
                [.text(entity)] + group.flatMap { $0.parameters.dropFirst() })
            guard anyFails == .integer(1) else { continue }
            let columns = group.map { "max(CASE WHEN \($0.condition) THEN 1 END)" }.joined(separator: ", ")
            let parameters = group.flatMap { $0.parameters.dropFirst() } + [.text(entity)]
            guard
                let row = try connection.rows(
                    "SELECT \(columns) FROM \(tables(table)) AS o WHERE o.\(StoreColumn.entity) = ?", parameters
                ).first
            else { continue }
            for (index, value) in zip(indices, row) where value == .integer(1) {
                failing[index] = true
            }
        }
        for index in checks.indices {
            if let probe = checks[index].probe { failing[index] = try answer(probe, connection) }
        }
        var failures: [ValidationFailure] = []
        for (check, fails) in zip(checks, failing) where fails {
            failures += try connection.rows(check.sql + " LIMIT \(limit)", check.parameters).map { row in
                ValidationFailure(
                    entity: check.entity, primaryKey: row[0].integerValue, property: check.property, rule: check.rule,
                    message: check.message(row.count > 1 ? row[1] : .null))
            }
        }
        return failures
    }

    /// Whether some row may fail the checks a probe stands for; each probe runs once.
    func answer(_ probe: Probe, _ connection: SQLiteConnection) throws(RemodelError) -> Bool {
        if let known = answers[probe] { return known }
        let answer = try Self.ask(probe, connection)
        answers[probe] = answer
        return answer
    }

    /// Runs a probe.
    static func ask(_ probe: Probe, _ connection: SQLiteConnection) throws(RemodelError) -> Bool {
        let value = try connection.scalar(probe.sql, probe.parameters)
        return value != nil && value != .null && value != .integer(0)
    }
}
