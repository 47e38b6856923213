/// The SQL that keeps one derived column (docs/STORE-LAYOUT.md, "Derived attributes"): its value over a row,
/// the statement that computes it for every row, and the triggers that keep it as rows change.
///
/// A derivation reads along a path of tables: the owner's (level 0), then the table each to-one relationship
/// leads to (levels 1…n), then, for an aggregate, the to-many relationship's objects (and join table). Each
/// trigger watches what one level reads and recomputes the owners whose path reaches the changed row, found
/// backwards through the to-one columns (each indexed, as every to-one column is).
///
/// For example, `Book.authorName = author.name`:
/// ```sql
/// UPDATE "Book" SET "authorName" = (SELECT h1."name" FROM "Person" AS h1 WHERE h1."_pk" = "Book"."author")
/// ```
package struct DerivedSQL {
    let layout: StoreLayout
    let column: StoreLayout.DerivedColumn

    package init(layout: StoreLayout, column: StoreLayout.DerivedColumn) {
        self.layout = layout
        self.column = column
    }

    private var derivation: ResolvedDerivation { column.resolved }
    private var hops: Int { derivation.toOnes.count }
    private var owner: String { quoteIdentifier(column.table) }
    private var target: String { quoteIdentifier(column.column) }

    /// The time now, as the store keeps dates (seconds since 1970).
    static let nowSQL = "((julianday('now') - 2440587.5) * 86400.0)"

    // MARK: - Tables along the path

    /// The table of level `level`: the owner's, then each to-one's destination.
    private func table(atLevel level: Int) -> String {
        level == 0 ? column.table : layout.table(forEntity: derivation.toOnes[level - 1].destination)?.name ?? ""
    }

    /// The to-one column on the table of level `level - 1` that leads to level `level` (1…n).
    private func link(toLevel level: Int) -> String {
        let hop = derivation.toOnes[level - 1]
        if case .column(_, let name)? = layout.storage(of: hop.relationship, in: hop.entity) { return name }
        return ""
    }

    /// The column of the attribute read at the end of the path.
    private var readColumn: String? {
        derivation.read.flatMap { layout.columnName(of: $0.name, in: $0.entity) }
    }

    /// The `_pk` of the object at level `level` (1…n) reached from the owner row `row`.
    private func key(atLevel level: Int, row: String, schema: String) -> String {
        if level == 1 { return "\(row).\(quoteIdentifier(link(toLevel: 1)))" }
        let alias = "h\(level - 1)"
        return
            "(SELECT \(alias).\(quoteIdentifier(link(toLevel: level))) FROM \(schema)\(quoteIdentifier(table(atLevel: level - 1))) AS \(alias) WHERE \(alias).\(StoreColumn.pk) = \(key(atLevel: level - 1, row: row, schema: schema)))"
    }

    // MARK: - The value

    /// The value of the derived attribute for the owner row `row` (`NEW`, or the quoted owner table in an
    /// `UPDATE` of it); `schema` prefixes every table read (`main.`, or nothing inside a trigger).
    func valueSQL(row: String, schema: String = "") -> String {
        let value: String
        switch derivation.derivation.form {
        case .now: value = Self.nowSQL
        case .keyPath: value = readSQL(row: row, schema: schema)
        case .function(let function, _):
            value = foldSQL(function, of: readSQL(row: row, schema: schema), schema: schema)
        case .aggregate(let aggregate, _, _): value = aggregateSQL(aggregate, row: row, schema: schema)
        }
        guard let kinds = column.kinds else { return value }
        return
            "CASE WHEN \(row).\(StoreColumn.entity) IN (\(kinds.map(quoteLiteral).joined(separator: ", "))) THEN \(value) END"
    }

    /// The expression of a generated column (a copy of another attribute of the row), over the row's own columns.
    var generatedSQL: String {
        let value = quoteIdentifier(readColumn ?? "")
        guard let kinds = column.kinds else { return value }
        return
            "CASE WHEN \(StoreColumn.entity) IN (\(kinds.map(quoteLiteral).joined(separator: ", "))) THEN \(value) END"
    }

    /// The attribute at the end of a key path.
    private func readSQL(row: String, schema: String) -> String {
        let read = quoteIdentifier(readColumn ?? "")
        guard hops > 0 else { return "\(row).\(read)" }
        let alias = "h\(hops)"
        return
            "(SELECT \(alias).\(read) FROM \(schema)\(quoteIdentifier(table(atLevel: hops))) AS \(alias) WHERE \(alias).\(StoreColumn.pk) = \(key(atLevel: hops, row: row, schema: schema)))"
    }

    /// The rows of the to-many relationship's objects (`d`) of the object whose `_pk` is `key`.
    private func toManyRows(key: String, schema: String) -> String {
        guard let toMany = derivation.toMany, let destination = layout.table(forEntity: toMany.destination)?.name
        else { return "(SELECT NULL) AS d WHERE 0" }
        let objects = "\(schema)\(quoteIdentifier(destination)) AS d"
        switch layout.storage(of: toMany.relationship, in: toMany.entity) {
        case .inverseColumn(_, let inverse, _)?:
            return "\(objects) WHERE d.\(quoteIdentifier(inverse)) = \(key)"
        case .joinTable(let name, let ownerIsSource, _)?:
            let (ownerSide, memberSide) = Self.joinSides(ownerIsSource)
            return
                "\(schema)\(quoteIdentifier(name)) AS j JOIN \(objects) ON d.\(StoreColumn.pk) = j.\(memberSide) WHERE j.\(ownerSide) = \(key)"
        default:
            return "(SELECT NULL) AS d WHERE 0"
        }
    }

    /// A join table's column of the relationship's owner and of its objects.
    private static func joinSides(_ ownerIsSource: Bool) -> (owner: String, member: String) {
        let (source, destination) = (StoreLayout.JoinTable.sourceColumn, StoreLayout.JoinTable.destinationColumn)
        return ownerIsSource ? (source, destination) : (destination, source)
    }

    private func aggregateSQL(_ aggregate: Derivation.Aggregate, row: String, schema: String) -> String {
        let key = hops == 0 ? "\(row).\(StoreColumn.pk)" : self.key(atLevel: hops, row: row, schema: schema)
        let read = "d.\(quoteIdentifier(readColumn ?? ""))"
        let function: String
        switch aggregate {
        case .count: function = "count(*)"
        case .sum:
            function = derivation.read?.type.isInteger ?? true ? "coalesce(sum(\(read)), 0)" : "total(\(read))"
        case .avg: function = "avg(\(read))"
        case .min: function = "min(\(read))"
        case .max: function = "max(\(read))"
        }
        let value = "(SELECT \(function) FROM \(toManyRows(key: key, schema: schema)))"
        // Through a to-one that is nil, there is no object to aggregate over: nil, as Core Data's key path gives.
        return hops == 0 ? value : "CASE WHEN \(key) IS NULL THEN NULL ELSE \(value) END"
    }

    /// `lowercase:`, `uppercase:` or `canonical:` of a text: SQLite's `lower()`/`upper()` for ASCII text, and
    /// character by character through the text folds (``TextFolds``) for any other.
    private func foldSQL(_ function: Derivation.Function, of value: String, schema: String) -> String {
        let fast = function == .uppercase ? "upper" : "lower"
        let folds = "\(schema)\(quoteIdentifier(StoreLayout.textFoldsTable))"
        return
            "(WITH RECURSIVE v(s) AS (SELECT \(value)), c(i, ch) AS (SELECT 1, substr(s, 1, 1) FROM v UNION ALL SELECT c.i + 1, substr(v.s, c.i + 1, 1) FROM c, v WHERE c.i < length(v.s)) "
            + "SELECT CASE WHEN s GLOB '*[^ -~]*' THEN (SELECT group_concat(coalesce(f.folded, \(fast)(c.ch)), '') FROM c LEFT JOIN \(folds) AS f ON f.function = \(quoteLiteral(function.rawValue)) AND f.character = c.ch) ELSE \(fast)(s) END FROM v)"
    }

    // MARK: - Computing every row

    /// The statement that computes the column for every row (a maintained column), or fills the rows that have
    /// no time yet (a timestamp); nil for a generated column.
    package var recomputeSQL: String? {
        let table = "main.\(owner)"
        let rows = column.kinds.map {
            " WHERE \(StoreColumn.entity) IN (\($0.map(quoteLiteral).joined(separator: ", ")))"
        }
        switch column.kind {
        case .generated: return nil
        case .maintained:
            return "UPDATE \(table) SET \(target) = \(valueSQL(row: owner, schema: "main."))\(rows ?? "")"
        case .timestamp:
            let empty = "\(target) IS NULL"
            return "UPDATE \(table) SET \(target) = \(Self.nowSQL)"
                + (rows.map { "\($0) AND \(empty)" } ?? " WHERE \(empty)")
        }
    }

    // MARK: - Triggers

    /// The triggers that keep the column, each `(name, CREATE TRIGGER …)`; none for a generated column.
    package var triggers: [(name: String, sql: String)] {
        var bodies: [(header: String, body: String)]
        switch column.kind {
        case .generated: return []
        case .timestamp: bodies = timestampTriggers
        case .maintained: bodies = ownerTriggers + levelTriggers + toManyTriggers
        }
        return bodies.enumerated().map { offset, trigger in
            let name = "\(StoreLayout.derivedTriggerPrefix)\(column.entity)_\(column.attribute)_\(offset + 1)"
            return (name, "CREATE TRIGGER \(quoteIdentifier(name)) \(trigger.header) BEGIN \(trigger.body) END")
        }
    }

    /// The message of a write the store refuses.
    private var refusal: String {
        "derived attribute \(column.qualifiedName) is computed by the store (\(derivation.derivation.text)) and cannot be written"
    }

    /// `UPDATE` of the owner table computing the column on the rows `condition` selects.
    private func recompute(where condition: String) -> String {
        "UPDATE \(owner) SET \(target) = \(valueSQL(row: owner)) WHERE \(condition);"
    }

    /// The owner rows whose path reaches, at `level`, an object whose `_pk` is `match` (`= NEW._pk`,
    /// `IN (SELECT …)`).
    private func reaching(level: Int, _ match: String) -> String {
        guard level > 0 else { return "\(owner).\(StoreColumn.pk) \(match)" }
        var condition = match
        for inner in stride(from: level - 1, through: 1, by: -1) {
            let alias = "r\(inner)"
            condition =
                "IN (SELECT \(alias).\(StoreColumn.pk) FROM \(quoteIdentifier(table(atLevel: inner))) AS \(alias) WHERE \(alias).\(quoteIdentifier(link(toLevel: inner + 1))) \(condition))"
        }
        return "\(owner).\(quoteIdentifier(link(toLevel: 1))) \(condition)"
    }

    /// The columns the path reads on the table of `level`: the next to-one, or at the end the attribute read.
    private func readsColumns(atLevel level: Int) -> [String] {
        if level < hops { return [link(toLevel: level + 1)] }
        if case .aggregate = derivation.derivation.form { return [] }
        return readColumn.map { [$0] } ?? []
    }

    /// On the owner's table: a new row is computed (and refused with another value), a row whose first link,
    /// kind or key changes is computed again, and a write of the column itself with another value is refused.
    private var ownerTriggers: [(header: String, body: String)] {
        let columns = (readsColumns(atLevel: 0) + [StoreColumn.entity, StoreColumn.pk]).map(quoteIdentifier)
        let own = "\(owner).\(StoreColumn.pk) = NEW.\(StoreColumn.pk)"
        return [
            (
                "AFTER INSERT ON \(owner) FOR EACH ROW",
                "SELECT RAISE(ABORT, \(quoteLiteral(refusal))) WHERE NEW.\(target) IS NOT NULL AND NEW.\(target) IS NOT \(valueSQL(row: "NEW")); "
                    + recompute(where: own)
            ),
            ("AFTER UPDATE OF \(columns.joined(separator: ", ")) ON \(owner) FOR EACH ROW", recompute(where: own)),
            (
                "AFTER UPDATE OF \(target) ON \(owner) FOR EACH ROW WHEN NEW.\(target) IS NOT \(valueSQL(row: "NEW"))",
                "SELECT RAISE(ABORT, \(quoteLiteral(refusal)));"
            ),
        ]
    }

    /// On each table a to-one leads to: a row that appears, goes, or changes what the path reads there.
    private var levelTriggers: [(header: String, body: String)] {
        guard hops > 0 else { return [] }
        var result: [(header: String, body: String)] = []
        for level in 1...hops {
            let reads = readsColumns(atLevel: level)
            guard !reads.isEmpty else { continue }
            let table = quoteIdentifier(self.table(atLevel: level))
            let watched = (reads + [StoreColumn.pk]).map(quoteIdentifier).joined(separator: ", ")
            let pk = StoreColumn.pk
            result += [
                ("AFTER INSERT ON \(table) FOR EACH ROW", recompute(where: reaching(level: level, "= NEW.\(pk)"))),
                ("AFTER DELETE ON \(table) FOR EACH ROW", recompute(where: reaching(level: level, "= OLD.\(pk)"))),
                (
                    "AFTER UPDATE OF \(watched) ON \(table) FOR EACH ROW",
                    recompute(
                        where: "\(reaching(level: level, "= OLD.\(pk)")) OR \(reaching(level: level, "= NEW.\(pk)"))")
                ),
            ]
        }
        return result
    }

    /// On the to-many relationship's objects (and its join table): a link or object that appears, goes or changes.
    private var toManyTriggers: [(header: String, body: String)] {
        guard let toMany = derivation.toMany, let destination = layout.table(forEntity: toMany.destination)?.name
        else { return [] }
        let objects = quoteIdentifier(destination)
        let read = readColumn.map { [quoteIdentifier($0)] } ?? []
        let pk = StoreColumn.pk
        func rows(_ old: String, _ new: String) -> String {
            "\(reaching(level: hops, old)) OR \(reaching(level: hops, new))"
        }
        switch layout.storage(of: toMany.relationship, in: toMany.entity) {
        case .inverseColumn(_, let inverse, _)?:
            let link = quoteIdentifier(inverse)
            return [
                ("AFTER INSERT ON \(objects) FOR EACH ROW", recompute(where: reaching(level: hops, "= NEW.\(link)"))),
                ("AFTER DELETE ON \(objects) FOR EACH ROW", recompute(where: reaching(level: hops, "= OLD.\(link)"))),
                (
                    "AFTER UPDATE OF \(([link] + read).joined(separator: ", ")) ON \(objects) FOR EACH ROW",
                    recompute(where: rows("= OLD.\(link)", "= NEW.\(link)"))
                ),
            ]
        case .joinTable(let name, let ownerIsSource, _)?:
            let join = quoteIdentifier(name)
            let (ownerSide, memberSide) = Self.joinSides(ownerIsSource)
            func owners(of object: String) -> String {
                "IN (SELECT j.\(ownerSide) FROM \(join) AS j WHERE j.\(memberSide) = \(object).\(pk))"
            }
            return [
                ("AFTER INSERT ON \(join) FOR EACH ROW", recompute(where: reaching(level: hops, "= NEW.\(ownerSide)"))),
                ("AFTER DELETE ON \(join) FOR EACH ROW", recompute(where: reaching(level: hops, "= OLD.\(ownerSide)"))),
                (
                    "AFTER UPDATE OF \(ownerSide), \(memberSide) ON \(join) FOR EACH ROW",
                    recompute(where: rows("= OLD.\(ownerSide)", "= NEW.\(ownerSide)"))
                ),
                ("AFTER INSERT ON \(objects) FOR EACH ROW", recompute(where: reaching(level: hops, owners(of: "NEW")))),
                ("AFTER DELETE ON \(objects) FOR EACH ROW", recompute(where: reaching(level: hops, owners(of: "OLD")))),
                (
                    "AFTER UPDATE OF \(([pk] + read).joined(separator: ", ")) ON \(objects) FOR EACH ROW",
                    recompute(where: rows(owners(of: "OLD"), owners(of: "NEW")))
                ),
            ]
        default:
            return []
        }
    }

    /// `now()`: a new row without a time gets the time now, and so does a row written without its time changed.
    private var timestampTriggers: [(header: String, body: String)] {
        let kinds = column.kinds.map {
            " AND NEW.\(StoreColumn.entity) IN (\($0.map(quoteLiteral).joined(separator: ", ")))"
        }
        let stamp =
            "UPDATE \(owner) SET \(target) = \(Self.nowSQL) WHERE \(owner).\(StoreColumn.pk) = NEW.\(StoreColumn.pk)"
        return [
            ("AFTER INSERT ON \(owner) FOR EACH ROW WHEN NEW.\(target) IS NULL\(kinds ?? "")", "\(stamp);"),
            (
                "AFTER UPDATE ON \(owner) FOR EACH ROW WHEN NEW.\(target) IS OLD.\(target)\(kinds ?? "")",
                "\(stamp) AND \(owner).\(target) IS NOT \(Self.nowSQL);"
            ),
        ]
    }
}
