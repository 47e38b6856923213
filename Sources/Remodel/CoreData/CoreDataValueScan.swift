import Foundation

/// The value checks of an import made beside the copy: on a thread and a connection of its own, each
/// table of the Core Data store is read in key ranges for a row the copy with the checks in it would
/// refuse (``CoreDataTableCopier/problem(_:)``, the same checks on the same values), while the importer
/// copies the tables without them.
///
/// Where every value passes, which is the rule, the checks cost the importer's thread nothing: they
/// run on the machine's other core (issue 32). Where the scan finds a value to refuse, or cannot read
/// the store, the importer throws its copy away and imports again with the checks in the copy, which
/// stops at the first such value and names it as it always has: the scan only says whether to.
final class CoreDataValueScan: @unchecked Sendable {
    /// Thrown inside the importer to stop the copy once the scan has found a value to refuse (never
    /// shown: the import then runs again with the checks in the copy).
    static let foundProblem = RemodelError(.invalidValue, "a value of the Core Data store fails its check")

    // `finished` is guarded by `lock`: whether the scan is over, and whether every value passed.
    private let lock = NSLock()
    private var finished: Bool?
    private var thread: BackgroundThread<Bool>?

    /// Starts the scan of `tables` (their Core Data names, in the order the importer copies them).
    init(store: CoreDataSource.Opening, tables: [CoreDataMapping.Table]) {
        let queries = tables.map { table in
            let name = "main.\(quoteIdentifier(table.source))"
            let key = CoreDataName.primaryKey
            return (
                bounds: "SELECT (SELECT min(\(key)) FROM \(name)), (SELECT max(\(key)) FROM \(name))",
                scan:
                    "SELECT 1 FROM \(name) AS s WHERE s.\(key) >= ? AND s.\(key) < ? AND (\(CoreDataTableCopier.problem(table))) LIMIT 1"
            )
        }
        thread = BackgroundThread { [self] () throws(RemodelError) -> Bool in
            let passed: Bool
            do throws(RemodelError) {
                passed = try Self.scan(store, queries)
            } catch {
                passed = false
            }
            lock.locked { finished = passed }
            return passed
        }
    }

    /// Whether the scan is over and found a value to refuse (or could not read the store): the
    /// importer's copy asks between its statements.
    var hasFoundProblem: Bool { lock.locked { finished == false } }

    /// Waits for the scan; whether every value of every table passed its check.
    func passed() -> Bool {
        guard case .success(let passed)? = thread?.wait() else { return false }
        return passed
    }

    /// Reads each table in ranges of `Z_PK`, as the copy does; false at the first row with a value to refuse.
    private static func scan(
        _ store: CoreDataSource.Opening, _ queries: [(bounds: String, scan: String)]
    ) throws(RemodelError) -> Bool {
        let connection = try store.connection()
        // One pass over each table: the pages are not read again, so a small cache does.
        try connection.execute("PRAGMA cache_size = -256")
        for query in queries {
            let row = try connection.rows(query.bounds).first
            guard let lowest = row?[0].coreDataInteger, let highest = row?[1].coreDataInteger else { continue }
            let statement = try connection.prepare(query.scan)
            var start = lowest
            while start <= highest {
                let end =
                    start > highest - CoreDataImporter.batchSpan ? highest + 1 : start + CoreDataImporter.batchSpan
                try statement.bind([.integer(start), .integer(end)])
                let found = try statement.step()
                statement.reset()
                if found { return false }
                start = end
            }
        }
        return true
    }
}
