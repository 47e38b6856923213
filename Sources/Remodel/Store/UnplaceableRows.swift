/// Finds rows of a store's hierarchy tables whose `_entity` the version cannot place: a name that is no
/// concrete entity of that table (unknown, abstract, or an entity of another table), written by hand or by
/// another tool. Export and migration read a table entity by entity, so such a row would be left out
/// without a word; Remodel refuses the store instead, naming the table, the row's `_pk` and the value.
///
/// What it costs:
/// - a table with an index on `_entity` (every table of more than one entity has `_<Table>_entity_index`)
///   is searched in that index between the names it may hold: one seek per gap between them, so a few
///   page reads whatever the table's size (`SEARCH … USING COVERING INDEX … (_entity>? AND _entity<?)`);
/// - a table of one entity has no such index: finding a stray row means reading the whole table, so it is
///   searched only when the caller reads the table anyway (an export, a migration that rebuilds it, or one
///   asked to check everything), never by a launch or a status.
enum UnplaceableRows {
    /// At most this many stray values are named per table (each with its first `_pk` and its count).
    static let valuesPerTable = 5

    /// Which tables to search.
    enum Scope {
        /// Only tables with an index on `_entity`: a few page reads per table.
        case indexed
        /// Those, and the tables named, read whole when they have no index.
        case indexedAnd(Set<String>)
        /// Every hierarchy table, read whole when it has no index.
        case all

        func reads(_ table: String) -> Bool {
            switch self {
            case .indexed: return false
            case .indexedAnd(let tables): return tables.contains(table)
            case .all: return true
            }
        }
    }

    /// The rows of the store on `connection` that `layout` (its version) cannot place, as drift, tables in
    /// layout order.
    ///
    /// With a `census`, a table read whole is read once for the census's counts too, and a second time only when
    /// it has a stray row, to name it.
    static func drifts(
        on connection: SQLiteConnection, layout: StoreLayout, scope: Scope, census: SourceCensus? = nil
    ) throws(RemodelError) -> [SchemaDrift] {
        let indexed = try tablesWithEntityIndex(on: connection)
        var drifts: [SchemaDrift] = []
        for table in layout.tables {
            let concrete = table.entities.filter { layout.version.entity(named: $0)?.isAbstract == false }
            let strays: [(value: SQLiteValue, firstKey: Int64, count: Int)]
            if indexed.contains(SQLName(table.name)) {
                strays = try seekStrays(table.name, concrete: concrete, on: connection)
            } else if scope.reads(table.name) {
                if let census, concrete.count == 1,
                    try !census.take(table.name, entity: concrete[0], on: connection)
                {
                    continue
                }
                strays = try scanStrays(table.name, concrete: concrete, on: connection)
            } else {
                continue
            }
            for stray in strays {
                drifts.append(
                    SchemaDrift(
                        unplaceable: table.name, value: stray.value, firstKey: stray.firstKey, count: stray.count,
                        reason: reason(stray.value, table: table, layout: layout)))
            }
        }
        return drifts
    }

    /// Why the version cannot place a row with this `_entity`.
    private static func reason(_ value: SQLiteValue, table: StoreLayout.Table, layout: StoreLayout)
        -> SchemaDrift.UnplaceableReason
    {
        guard case .text(let name) = value, let entity = layout.version.entity(named: name) else { return .unknown }
        if entity.isAbstract { return .abstract }
        return .otherTable(layout.table(forEntity: name)?.name ?? table.name)
    }

    /// The hierarchy tables with an index whose first column is `_entity`, binary, not partial.
    private static func tablesWithEntityIndex(on connection: SQLiteConnection) throws(RemodelError) -> Set<SQLName> {
        let rows = try connection.rows(
            """
            SELECT m.name FROM sqlite_master AS m JOIN pragma_index_list(m.name) AS l
            JOIN pragma_index_xinfo(l.name) AS i
            WHERE m.type = 'table' AND l.partial = 0 AND i.seqno = 0 AND i.name = '\(StoreColumn.entity)'
            AND i.coll = 'BINARY'
            """)
        return Set(
            rows.compactMap { row in
                if case .text(let name)? = row.first { return SQLName(name) }
                return nil
            })
    }

    /// Stray values found in the `_entity` index, gap by gap between the concrete names (in SQLite's binary
    /// order): each probe is a seek, so a table without strays costs one seek per gap.
    private static func seekStrays(_ table: String, concrete: [String], on connection: SQLiteConnection)
        throws(RemodelError) -> [(value: SQLiteValue, firstKey: Int64, count: Int)]
    {
        let bounds = concrete.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map {
            SQLiteValue.text($0)
        }
        let quoted = quoteIdentifier(table)
        var strays: [(value: SQLiteValue, firstKey: Int64, count: Int)] = []
        // Gaps: before the first name, between two, after the last (or everything, for no name at all).
        let lows: [SQLiteValue?] = [nil] + bounds.map { $0 }
        let highs: [SQLiteValue?] = bounds.map { $0 } + [nil]
        for (low, high) in zip(lows, highs) {
            var after = low
            while strays.count < valuesPerTable {
                let next = try connection.scalar(
                    gapSQL(quoted, low: after != nil, high: high != nil), [after, high].compactMap { $0 })
                guard let value = next, value != .null else { break }
                let row = try connection.rows(countSQL(quoted), [value])
                if case .integer(let key)? = row.first?[0], case .integer(let count)? = row.first?[1] {
                    strays.append((value, key, Int(count)))
                }
                after = value
            }
        }
        if strays.count < valuesPerTable, let nulls = try nullRows(quoted, on: connection) { strays.append(nulls) }
        return strays
    }

    /// The first `_entity` in a gap of the index: after `?` (else any), before `?` (else any).
    private static func gapSQL(_ quoted: String, low: Bool, high: Bool) -> String {
        let column = StoreColumn.entity
        let conditions = [low ? "\(column) > ?" : "\(column) IS NOT NULL"] + (high ? ["\(column) < ?"] : [])
        return
            "SELECT \(column) FROM \(quoted) WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(column) LIMIT 1"
    }

    /// The first `_pk` and the count of the rows of one `_entity` value.
    private static func countSQL(_ quoted: String) -> String {
        "SELECT min(\(StoreColumn.pk)), count(*) FROM \(quoted) WHERE \(StoreColumn.entity) = ?"
    }

    /// Every statement the search of an indexed table runs, for a test of their query plans.
    static func seekSQL(table: String) -> [String] {
        let quoted = quoteIdentifier(table)
        return [
            gapSQL(quoted, low: false, high: true), gapSQL(quoted, low: true, high: true),
            gapSQL(quoted, low: true, high: false), countSQL(quoted),
        ]
    }

    /// Rows with no `_entity` at all (the layout's `NOT NULL` forbids them; a table made by hand may not).
    private static func nullRows(_ quoted: String, on connection: SQLiteConnection) throws(RemodelError) -> (
        value: SQLiteValue, firstKey: Int64, count: Int
    )? {
        let row = try connection.rows(
            "SELECT min(\(StoreColumn.pk)), count(*) FROM \(quoted) WHERE \(StoreColumn.entity) IS NULL")
        guard case .integer(let key)? = row.first?[0], case .integer(let count)? = row.first?[1], count > 0 else {
            return nil
        }
        return (.null, key, Int(count))
    }

    /// Stray values found by reading the whole table once (it has no `_entity` index).
    private static func scanStrays(_ table: String, concrete: [String], on connection: SQLiteConnection)
        throws(RemodelError) -> [(value: SQLiteValue, firstKey: Int64, count: Int)]
    {
        let column = StoreColumn.entity
        let known = concrete.isEmpty ? "" : "\(column) NOT IN (\(placeholders(concrete.count))) OR "
        let rows = try connection.rows(
            """
            SELECT \(column), min(\(StoreColumn.pk)), count(*) FROM \(quoteIdentifier(table))
            WHERE \(known)\(column) IS NULL GROUP BY \(column) ORDER BY min(\(StoreColumn.pk)) LIMIT \(valuesPerTable)
            """, concrete.map { .text($0) })
        return rows.compactMap { row in
            guard row.count == 3, case .integer(let key) = row[1], case .integer(let count) = row[2] else { return nil }
            return (row[0], key, Int(count))
        }
    }
}
