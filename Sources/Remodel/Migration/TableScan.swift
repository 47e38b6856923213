
/// Runs the row checks of one entity as one scan of its table instead of one scan each: a first query
/// asks, for every check at once, whether any row fails it; only the checks that some row fails then
/// run on their own to name their first offenders, so the failures are exactly those of running every
/// check by itself, in the same order.
final class TableScan {
    struct Check {
        var sql: String
        var condition: String
        /// The entity's name, then the condition's own parameters.
        var parameters: [SQLiteValue]
        var entity: String
        var property: String?
        var rule: String
        var message: (SQLiteValue) -> String
    }

    /// Conditions per probe query, well under SQLite's limits on result columns and expression size.
    static let checksPerProbe = 100

    private var table: String?
    private var entity = ""
    private var checks: [Check] = []

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
    func finish(_ connection: SQLiteConnection, tables: TableReferences, limit: Int) throws(RemodelError) -> [ValidationFailure] {
        guard let table else { return [] }
        self.table = nil
        defer { checks = [] }
        var failing: [Check] = []
        var start = 0
        while start < checks.count {
            let group = checks[start..<min(start + Self.checksPerProbe, checks.count)]
            start += Self.checksPerProbe
            let columns = group.map { "max(CASE WHEN \($0.condition) THEN 1 END)" }.joined(separator: ", ")
            let parameters = group.flatMap { $0.parameters.dropFirst() } + [.text(entity)]
            guard let row = try connection.rows(
                "SELECT \(columns) FROM \(tables(table)) AS o WHERE o.\"_entity\" = ?", parameters
            ).first else { continue }
            for (check, value) in zip(group, row) where value == .integer(1) {
                failing.append(check)
            }
        }
        var failures: [ValidationFailure] = []
        for check in failing {
            failures += try connection.rows(check.sql + " LIMIT \(limit)", check.parameters).map { row in
                ValidationFailure(
                    entity: check.entity, primaryKey: row[0].integerValue, property: check.property, rule: check.rule,
                    message: check.message(row.count > 1 ? row[1] : .null))
            }
        }
        return failures
    }
}
