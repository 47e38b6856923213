internal import Foundation
import Remodel

/// Copies one Core Data table at a time into the Remodel store being written, in SQL over the attached
/// source (schema `source`): rows go in key ranges in key order, order columns are ranked, join tables
/// copied in key order. Each value is checked in the scan that copies it (a value Remodel cannot hold
/// stops the statement through ``CoreDataRefusal`` and is then explained), except in the ranges that
/// ``CoreDataValueScan`` has checked ahead of the copy on another thread.
final class CoreDataTableCopier {
    let connection: SQLiteConnection
    /// The Core Data store as the user named it (errors name it).
    let source: String
    /// The new store as the user named it.
    let target: String
    let progress: OperationProgressReporter
    let refusal: CoreDataRefusal
    /// The checks made ahead of the copy, on another connection and thread, for the ranges it vouches
    /// for; `nil`: the copy makes them all itself.
    var valueScan: CoreDataValueScan?
    /// For progress: objects copied so far, and keys not yet gone through.
    private var copied = 0
    private var keysLeft = 0

    init(connection: SQLiteConnection, source: String, target: String, progress: OperationProgressReporter)
        throws(RemodelError)
    {
        self.connection = connection
        self.source = source
        self.target = target
        self.progress = progress
        self.refusal = try CoreDataRefusal(on: connection)
    }

    static let batchSpan: Int64 = CoreDataImporter.batchSpan
    static let key = CoreDataName.primaryKey
    static let entityNumber = CoreDataName.entityNumber

    func sourceTable(_ name: String) -> String { "source.\(quoteIdentifier(name))" }

    /// `s.Z_ENT IN (1, 2)`.
    static func entityTest(_ numbers: [Int64]) -> String {
        "s.\(entityNumber) IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }

    // MARK: - Copying

    /// The checks of one table's copy, by problem number: the source column and what it must hold.
    typealias Problems = [(item: CoreDataMapping.Source, expected: String)]

    /// One Core Data column read as Remodel keeps it, and the check of its values (`nil`: any will do).
    static func value(_ item: CoreDataMapping.Source) -> (
        converted: String, check: CoreDataValues.Check?, expected: String
    ) {
        let raw = "s.\(quoteIdentifier(item.column))"
        guard let type = item.type else {
            // A to-one holds a key: an integer.
            return (
                raw, .accept(when: CoreDataValues.integer(raw)),
                "the \(CoreDataName.primaryKey) of an object, an integer"
            )
        }
        if item.isExternal {
            let check = CoreDataValues.externalCheck(raw)
            return (CoreDataValues.externalConversion(raw), check.check, check.expected)
        }
        let check = CoreDataValues.check(raw, type: type)
        return (CoreDataValues.conversion(raw, type: type), check.check, check.expected)
    }

    /// ``value(_:)`` of a column of the table (not a composite's leaf, which is nil wherever its composite is):
    /// where the property is required, NULL is refused too. Core Data checks that only when it saves an object,
    /// so a batch update or another program can leave a NULL there, and a Remodel store holding it would fail its
    /// own checks, and its export would not import back.
    static func columnValue(_ item: CoreDataMapping.Source) -> (
        converted: String, check: CoreDataValues.Check?, expected: String
    ) {
        let (converted, check, expected) = value(item)
        guard !item.isOptional else { return (converted, check, expected) }
        let raw = "s.\(quoteIdentifier(item.column))"
        let required: CoreDataValues.Check =
            switch check {
            case nil: .refuse(when: "\(raw) IS NULL")
            case .refuse(let condition)?: .refuse(when: "\(raw) IS NULL OR (\(condition))")
            case .accept(let condition)?: .accept(when: "\(raw) IS NOT NULL AND (\(condition))")
            }
        return (converted, required, "\(expected), never NULL (the model says it is required)")
    }

    /// One Core Data column of a row `s` read as Remodel keeps it, unchecked.
    static func convertedValue(of item: CoreDataMapping.Source) -> String { value(item).converted }

    /// The SQL reading one Remodel column from a row `s`; with `problems`, refusing a value that fails
    /// its check (the checks in the copy), else as it is (the checks made beside it).
    private static func expression(
        _ column: CoreDataMapping.ValueColumn, allNumbers: [Int64], problems: inout Problems?
    ) -> String {
        func copied(_ item: CoreDataMapping.Source) -> String {
            Self.copied(item, problems: &problems, value: columnValue)
        }
        if column.sources.count == 1, let only = column.sources.first, Set(only.numbers).isSuperset(of: allNumbers) {
            return copied(only)
        }
        let branches = column.sources.map { "WHEN \(entityTest($0.numbers)) THEN \(copied($0))" }
        return "CASE \(branches.joined(separator: " ")) END"
    }

    /// One Core Data column read as Remodel keeps it, with its check in the copy when `problems` records them.
    static func copied(
        _ item: CoreDataMapping.Source, problems: inout Problems?,
        value: (CoreDataMapping.Source) -> (converted: String, check: CoreDataValues.Check?, expected: String) =
            value
    ) -> String {
        let (converted, check, expected) = value(item)
        guard let check, var list = problems else { return converted }
        list.append((item, expected))
        problems = list
        return check.guarding(converted, refusal: CoreDataRefusal.call(Int64(list.count - 1)))
    }

    /// SQL true for a row `s` one of whose values the copy with the checks in it would refuse (the same
    /// checks, on the same values, each where the copy makes it), NULL or false for a row it takes.
    static func problem(_ table: CoreDataMapping.Table) -> String {
        let numbers = table.entityByNumber.keys.sorted()
        // A table of no concrete entity (an abstract one without sub-entities) holds no object that may be taken.
        var tests = [
            numbers.isEmpty
                ? "1"
                : "CASE s.\(entityNumber) " + numbers.map { "WHEN \($0) THEN 0" }.joined(separator: " ") + " ELSE 1 END"
        ]
        for column in table.columns {
            func refused(_ item: CoreDataMapping.Source) -> String? {
                switch columnValue(item).check {
                case .refuse(let condition)?: return "(\(condition))"
                case .accept(let condition)?: return "((\(condition)) IS NOT 1)"
                case nil: return nil
                }
            }
            if column.sources.count == 1, let only = column.sources.first, Set(only.numbers).isSuperset(of: numbers) {
                if let test = refused(only) { tests.append(test) }
                continue
            }
            // The same branches as the copy's, in its order: the first whose entities match decides.
            guard column.sources.contains(where: { refused($0) != nil }) else { continue }
            let branches = column.sources.map { "WHEN \(entityTest($0.numbers)) THEN \(refused($0) ?? "0")" }
            tests.append("CASE \(branches.joined(separator: " ")) END")
        }
        tests += compositeProblems(table)
        return tests.joined(separator: " OR ")
    }

    /// The ranges of `Z_PK` a table from `lowest` to `highest` is copied in, in order.
    static func ranges(from lowest: Int64, to highest: Int64) -> [(start: Int64, end: Int64)] {
        var result: [(start: Int64, end: Int64)] = []
        var start = lowest
        while start <= highest {
            let end = start > highest - batchSpan ? highest + 1 : start + batchSpan
            result.append((start, end))
            start = end
        }
        return result
    }

    /// The ranges every table is copied in, in the order of `tables` (what ``CoreDataValueScan`` reads).
    func ranges(_ tables: [CoreDataMapping.Table]) throws(RemodelError) -> [CoreDataValueScan.Range] {
        var result: [CoreDataValueScan.Range] = []
        for table in tables {
            guard let (lowest, highest) = try keyBounds(table) else { continue }
            result += Self.ranges(from: lowest, to: highest).map {
                CoreDataValueScan.Range(table: table.source, start: $0.start, end: $0.end)
            }
        }
        return result
    }

    /// Inserts every object of the table, in ranges of `Z_PK`, checking each value as it goes (where
    /// ``valueScan`` has not vouched for the range); returns the number of rows.
    @discardableResult
    func copy(_ table: CoreDataMapping.Table) throws(RemodelError) -> Int {
        let numbers = table.entityByNumber.keys.sorted()
        let targets =
            [StoreColumn.pk, StoreColumn.entity] + table.columns.map(\.target) + table.composites.map(\.target)
        /// The copy's statement, with the checks (recording them in `problems`) or without.
        func statement(_ problems: inout Problems?) throws(RemodelError) -> SQLiteStatement {
            // Without the checks, an object of no concrete entity gets no name (`_entity` is NOT NULL);
            // the scan has vouched that there is none.
            // A table of no concrete entity (an abstract one without sub-entities): every object of it is refused
            // (a CASE needs one WHEN at least).
            let stray = problems == nil ? "NULL" : CoreDataRefusal.call(CoreDataRefusal.strayEntity)
            let entityName =
                numbers.isEmpty
                ? stray
                : "CASE s.\(Self.entityNumber) "
                    + numbers.map { "WHEN \($0) THEN \(quoteLiteral(table.entityByNumber[$0] ?? ""))" }.joined(
                        separator: " ")
                    + (problems == nil ? "" : " ELSE \(stray)") + " END"
            let values =
                ["s.\(Self.key)", entityName]
                + table.columns.map { Self.expression($0, allNumbers: numbers, problems: &problems) }
                + table.composites.map { Self.expression($0, allNumbers: numbers, problems: &problems) }
            return try connection.prepare(
                "INSERT INTO main.\(quoteIdentifier(table.target)) (\(targets.map(quoteIdentifier).joined(separator: ", "))) SELECT "
                    + values.joined(separator: ", ")
                    + " FROM \(sourceTable(table.source)) AS s WHERE s.\(Self.key) >= ? AND s.\(Self.key) < ? ORDER BY s.\(Self.key)"
            )
        }
        var checked: Problems? = []
        let insert = try statement(&checked)
        let problems = checked ?? []
        var unchecked: Problems? = nil
        let vouchedInsert = valueScan == nil ? nil : try statement(&unchecked)
        guard let (lowest, highest) = try keyBounds(table) else { return 0 }
        let item = table.entityByNumber.count == 1 ? table.entityByNumber.values.first : table.target
        var rows = 0
        for (start, end) in Self.ranges(from: lowest, to: highest) {
            let range = CoreDataValueScan.Range(table: table.source, start: start, end: end)
            let statement =
                if let vouchedInsert, let valueScan, valueScan.take(range) { vouchedInsert } else { insert }
            try statement.bind([.integer(start), .integer(end)])
            do {
                while try statement.step() {}
            } catch {
                statement.reset()
                if let (problem, key) = refusal.take() {
                    throw try explain(problem: problem, key: key, table: table, problems: problems)
                }
                throw failure(error, copying: "\(table.source) into \(table.target)", entity: table.target)
            }
            statement.reset()
            rows += connection.changes
            copied += connection.changes
            keysLeft -= Int(end - start)
            progress.report("importing", item: item, completed: copied, total: copied + keysLeft, unit: .objects)
        }
        return rows
    }

    /// The smallest and largest `Z_PK` of a table, `nil` when it is empty: two lookups in its key's
    /// B-tree (SQLite reads `min()` and `max()` from the index only when each is alone in its query).
    func keyBounds(_ table: CoreDataMapping.Table) throws(RemodelError) -> (Int64, Int64)? {
        let source = sourceTable(table.source)
        let row = try connection.rows(
            "SELECT (SELECT min(\(Self.key)) FROM \(source)), (SELECT max(\(Self.key)) FROM \(source))"
        ).first
        guard let lowest = row?[0].coreDataInteger, let highest = row?[1].coreDataInteger else { return nil }
        return (lowest, highest)
    }

    /// Counts the keys every table spans before the copy starts: progress counts the objects copied
    /// against those copied plus the keys left to go, which is the number of objects where keys are
    /// dense and comes down to it as the copy goes (a count of the rows would read every table once more).
    func countKeys(_ tables: [CoreDataMapping.Table]) throws(RemodelError) {
        keysLeft = 0
        for table in tables {
            guard let (lowest, highest) = try keyBounds(table) else { continue }
            keysLeft += Int(clamping: highest - lowest + 1)
        }
    }

    /// An error of a copy statement in the words of the store at fault: a damaged source (SQLite cannot
    /// read it) names the Core Data store; anything else names the new store.
    func failure(_ error: RemodelError, copying what: String, entity: String?) -> RemodelError {
        if let damage = Self.sourceDamage(error, source: source, entity: entity) { return damage }
        var wrapped = RemodelError(
            .sqlite, "copying \(what) failed: \(error.message)", path: target, entity: entity, cause: error)
        wrapped.sqliteCode = error.sqliteCode
        return wrapped
    }

    /// SQLite's "the file is damaged" (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) met while importing, said of
    /// the Core Data store (the only file the import reads); `nil` for any other error.
    static func sourceDamage(_ error: RemodelError, source: String, entity: String? = nil) -> RemodelError? {
        let damaged: Set<Int32> = [11, 26]
        guard error.code == .sqlite, let code = error.sqliteCode, damaged.contains(code & 0xFF) else { return nil }
        return RemodelError(
            .notAStore,
            "the Core Data store is damaged: SQLite cannot read it (\(error.message)); nothing was imported: copy it again from the device or a backup",
            path: source, entity: entity, cause: error)
    }

    // MARK: - Explaining a refused value

    /// The sentence for the value the copy refused: the entity, `Z_PK`, attribute, column and value.
    private func explain(problem: Int64, key: Int64, table: CoreDataMapping.Table, problems: Problems)
        throws(RemodelError) -> RemodelError
    {
        let number = try connection.scalar(
            "SELECT \(Self.entityNumber) FROM \(sourceTable(table.source)) WHERE \(Self.key) = ?", [.integer(key)]
        )?.coreDataInteger
        guard problem >= 0, Int(problem) < problems.count else {
            let what: String
            if let number, let abstract = table.abstractNumbers[number] {
                what = "the abstract entity \(abstract)"
            } else if let number {
                what =
                    "entity number \(number), which \(CoreDataName.primaryKeyTable) does not give to an entity of this table"
            } else {
                what = "no entity number"
            }
            return RemodelError(
                .invalidValue,
                "\(table.source) \(Self.key) \(key) has \(what); an object must be of a concrete entity, so nothing was imported; open the store with the app to repair it, or give the model version that wrote it",
                path: source, entity: table.target, primaryKey: key)
        }
        let (item, expected) = problems[Int(problem)]
        let entity = number.flatMap { table.entityByNumber[$0] } ?? item.entity
        let column = quoteIdentifier(item.column)
        let value = try connection.scalar(
            "SELECT quote(\(column)) || ' (' || typeof(\(column)) || ')' FROM \(sourceTable(table.source)) WHERE \(Self.key) = ?",
            [.integer(key)])
        var shown = "?"
        if case .text(let text)? = value { shown = text }
        if shown.count > 80 { shown = String(shown.prefix(77)) + "…" }
        var kind = "a to-one relationship"
        if let type = item.type { kind = "a \(type.rawValue) attribute" }
        return RemodelError(
            .invalidValue,
            "\(entity) \(Self.key) \(key) \(item.type == nil ? "relationship" : "attribute") \"\(item.property)\" (column \(table.source).\(item.column)): the store holds \(shown), but \(kind) must be \(expected); Remodel does not drop or change a value, so nothing was imported: correct it with the app, or give the model version whose type it has",
            path: source, entity: entity, property: item.property, primaryKey: key)
    }

    // MARK: - Orders and links

    /// Order columns: 0-based positions, ranked from Core Data's ordering keys within each owner.
    func rankOrders(_ table: CoreDataMapping.Table) throws(RemodelError) {
        let target = quoteIdentifier(table.target)
        for order in table.orders {
            let partition = quoteIdentifier(order.partition)
            try connection.execute(
                "UPDATE main.\(target) SET \(quoteIdentifier(order.target)) = ranked.position FROM (SELECT s.\(Self.key) AS pk, "
                    + "row_number() OVER (PARTITION BY s.\(partition) ORDER BY s.\(quoteIdentifier(order.key)), s.\(Self.key)) - 1 AS position "
                    + "FROM \(sourceTable(table.source)) AS s WHERE s.\(partition) IS NOT NULL) AS ranked WHERE main.\(target).\(StoreColumn.pk) = ranked.pk"
            )
        }
    }

    /// Copies a many-to-many join table in the new table's key order; returns the number of links.
    func copy(_ join: CoreDataMapping.Join) throws(RemodelError) -> Int {
        let owner = "j.\(quoteIdentifier(join.sourceColumn))"
        let member = "j.\(quoteIdentifier(join.destinationColumn))"
        let sourceOrder =
            join.sourceOrderKey.map {
                "row_number() OVER (PARTITION BY \(owner) ORDER BY j.\(quoteIdentifier($0)), \(member)) - 1"
            } ?? "NULL"
        let destinationOrder =
            join.destinationOrderKey.map {
                "row_number() OVER (PARTITION BY \(member) ORDER BY j.\(quoteIdentifier($0)), \(owner)) - 1"
            } ?? "NULL"
        let columns = [
            StoreColumn.joinSource, StoreColumn.joinDestination, StoreColumn.joinSourceOrder,
            StoreColumn.joinDestinationOrder,
        ]
        do {
            try connection.execute(
                "INSERT INTO main.\(quoteIdentifier(join.target)) (\(columns.joined(separator: ", "))) SELECT \(owner), \(member), \(sourceOrder), \(destinationOrder) "
                    + "FROM \(sourceTable(join.source)) AS j WHERE \(owner) IS NOT NULL AND \(member) IS NOT NULL ORDER BY \(owner), \(member)"
            )
        } catch {
            throw failure(error, copying: "\(join.source) into \(join.target)", entity: nil)
        }
        return connection.changes
    }
}

extension SQLiteValue {
    /// The integer, if this is one.
    var coreDataInteger: Int64? { if case .integer(let value) = self { return value } else { return nil } }
}
