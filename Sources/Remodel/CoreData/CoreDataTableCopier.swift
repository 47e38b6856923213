internal import Foundation

/// Copies one Core Data table at a time into the Remodel store being written, in SQL over the attached
/// source (schema `source`): checks every value first, then inserts in key ranges, ranks order
/// columns, and reads external binary data in.
final class CoreDataTableCopier {
    let connection: SQLiteConnection
    let source: String
    let progress: OperationProgressReporter
    /// Objects to copy in all, and copied so far (for progress).
    var total = 0
    private var copied = 0

    init(connection: SQLiteConnection, source: String, progress: OperationProgressReporter) {
        self.connection = connection
        self.source = source
        self.progress = progress
    }

    private func sourceTable(_ name: String) -> String { "source.\(quoteIdentifier(name))" }

    /// `s."Z_ENT" IN (1, 2)`.
    private static func entityTest(_ numbers: [Int64]) -> String {
        "s.\(CoreDataName.entityNumber) IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }

    // MARK: - Checking

    /// Refuses the first object whose entity number is not one of the hierarchy's concrete entities, or
    /// whose value Remodel cannot hold, naming the entity, `Z_PK`, attribute and value.
    func check(_ table: CoreDataMapping.Table) throws(RemodelError) {
        let concrete = table.entityByNumber.keys.sorted()
        let stray = try connection.rows(
            "SELECT s.\(CoreDataName.primaryKey), s.\(CoreDataName.entityNumber) FROM \(sourceTable(table.source)) AS s WHERE s.\(CoreDataName.entityNumber) IS NULL OR NOT \(Self.entityTest(concrete)) ORDER BY s.\(CoreDataName.primaryKey) LIMIT 1"
        )
        if let row = stray.first {
            let key = row[0].coreDataInteger ?? 0
            let number = row[1].coreDataInteger
            let what =
                number.flatMap { table.abstractNumbers[$0].map { "the abstract entity \($0)" } } ?? number.map {
                    "entity number \($0), which \(CoreDataName.primaryKeyTable) does not give to an entity of this table"
                } ?? "no entity number"
            throw RemodelError(
                .invalidValue,
                "\(table.source) \(CoreDataName.primaryKey) \(key) has \(what); an object must be of a concrete entity, so nothing was imported; open the store with the app to repair it, or give the model version that wrote it",
                path: source, entity: table.target, primaryKey: key)
        }
        var cases: [String] = []
        var problems: [(CoreDataMapping.Source, String)] = []
        for column in table.columns {
            for item in column.sources {
                guard let type = item.type else { continue }
                let value = "s.\(quoteIdentifier(item.column))"
                var (condition, expected) = CoreDataValues.problem(value, type: type)
                if item.isExternal {
                    condition =
                        "typeof(\(value)) NOT IN ('blob', 'null') OR (typeof(\(value)) = 'blob' AND substr(\(value), 1, 1) NOT IN (X'01', X'02'))"
                    expected = "bytes after a marker byte 1 (kept in the store) or 2 (kept in a file)"
                }
                cases.append("WHEN \(Self.entityTest(item.numbers)) AND (\(condition)) THEN \(problems.count)")
                problems.append((item, expected))
            }
        }
        guard !cases.isEmpty else { return }
        let sql =
            "SELECT pk, ent, problem FROM (SELECT s.\(CoreDataName.primaryKey) AS pk, s.\(CoreDataName.entityNumber) AS ent, CASE \(cases.joined(separator: " ")) END AS problem "
            + "FROM \(sourceTable(table.source)) AS s) WHERE problem IS NOT NULL ORDER BY pk LIMIT 1"
        guard let row = try connection.rows(sql).first, let key = row[0].coreDataInteger,
            let index = row[2].coreDataInteger
        else { return }
        let (item, expected) = problems[Int(index)]
        let entity = row[1].coreDataInteger.flatMap { table.entityByNumber[$0] } ?? item.entity
        let value = try connection.scalar(
            "SELECT quote(\(quoteIdentifier(item.column))) || ' (' || typeof(\(quoteIdentifier(item.column))) || ')' FROM \(sourceTable(table.source)) WHERE \(CoreDataName.primaryKey) = ?",
            [.integer(key)])
        var shown = value.flatMap { if case .text(let text) = $0 { return text } else { return nil } } ?? "?"
        if shown.count > 80 { shown = String(shown.prefix(77)) + "…" }
        throw RemodelError(
            .invalidValue,
            "\(entity) \(CoreDataName.primaryKey) \(key) attribute \"\(item.property)\" (column \(table.source).\(item.column)): the store holds \(shown), but a \(item.type?.rawValue ?? "") attribute must be \(expected); Remodel does not drop or change a value, so nothing was imported: correct it with the app, or give the model version whose type it has",
            path: source, entity: entity, property: item.property, primaryKey: key)
    }

    // MARK: - Copying

    /// The SQL reading one Remodel column from a row `s` of the Core Data table.
    private static func expression(_ column: CoreDataMapping.ValueColumn, allNumbers: [Int64]) -> String {
        func value(_ item: CoreDataMapping.Source) -> String {
            let raw = "s.\(quoteIdentifier(item.column))"
            guard let type = item.type else { return raw }
            if item.isExternal { return "CASE WHEN substr(\(raw), 1, 1) = X'01' THEN substr(\(raw), 2) ELSE NULL END" }
            return CoreDataValues.conversion(raw, type: type)
        }
        if column.sources.count == 1, let only = column.sources.first, Set(only.numbers).isSuperset(of: allNumbers) {
            return value(only)
        }
        let branches = column.sources.map { "WHEN \(entityTest($0.numbers)) THEN \(value($0))" }
        return "CASE \(branches.joined(separator: " ")) END"
    }

    /// Inserts every object of the table, in ranges of `Z_PK`.
    func copy(_ table: CoreDataMapping.Table) throws(RemodelError) {
        let numbers = table.entityByNumber.keys.sorted()
        let entityName =
            "CASE s.\(CoreDataName.entityNumber) "
            + numbers.map { "WHEN \($0) THEN \(quoteLiteral(table.entityByNumber[$0] ?? ""))" }.joined(separator: " ")
            + " END"
        let targets = [StoreColumn.pk, StoreColumn.entity] + table.columns.map(\.target)
        let values =
            ["s.\(CoreDataName.primaryKey)", entityName]
            + table.columns.map { Self.expression($0, allNumbers: numbers) }
        let insert = try connection.prepare(
            "INSERT INTO main.\(quoteIdentifier(table.target)) (\(targets.map(quoteIdentifier).joined(separator: ", "))) SELECT "
                + values.joined(separator: ", ")
                + " FROM \(sourceTable(table.source)) AS s WHERE s.\(CoreDataName.primaryKey) >= ? AND s.\(CoreDataName.primaryKey) < ? ORDER BY s.\(CoreDataName.primaryKey)"
        )
        let bounds =
            try connection.rows(
                "SELECT min(\(CoreDataName.primaryKey)), max(\(CoreDataName.primaryKey)) FROM \(sourceTable(table.source))"
            ).first ?? []
        guard let lowest = bounds.first?.coreDataInteger, let highest = bounds.last?.coreDataInteger else { return }
        let item = table.entityByNumber.count == 1 ? table.entityByNumber.values.first : table.target
        var start = lowest
        while start <= highest {
            let end = start > highest - Self.batchSpan ? highest + 1 : start + Self.batchSpan
            try insert.bind([.integer(start), .integer(end)])
            do {
                while try insert.step() {}
            } catch {
                throw RemodelError(
                    .sqlite, "copying \(table.source) into \(table.target) failed: \(error.message)", path: source,
                    entity: table.target, cause: error)
            }
            insert.reset()
            copied += connection.changes
            progress.report("importing", item: item, completed: copied, total: total, unit: .objects)
            start = end
        }
    }

    static let batchSpan: Int64 = CoreDataImporter.batchSpan

    /// Order columns: 0-based positions, ranked from Core Data's ordering keys within each owner.
    func rankOrders(_ table: CoreDataMapping.Table) throws(RemodelError) {
        let target = quoteIdentifier(table.target)
        for order in table.orders {
            let partition = quoteIdentifier(order.partition)
            try connection.execute(
                "UPDATE main.\(target) SET \(quoteIdentifier(order.target)) = ranked.position FROM (SELECT s.\(CoreDataName.primaryKey) AS pk, "
                    + "row_number() OVER (PARTITION BY s.\(partition) ORDER BY s.\(quoteIdentifier(order.key)), s.\(CoreDataName.primaryKey)) - 1 AS position "
                    + "FROM \(sourceTable(table.source)) AS s WHERE s.\(partition) IS NOT NULL) AS ranked WHERE main.\(target).\(StoreColumn.pk) = ranked.pk"
            )
        }
    }

    /// Copies a many-to-many join table; returns the number of links.
    func copy(_ join: CoreDataMapping.Join) throws(RemodelError) -> Int {
        typealias J = StoreLayout.JoinTable
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
        let columns = [J.sourceColumn, J.destinationColumn, J.sourceOrderColumn, J.destinationOrderColumn].map(
            quoteIdentifier)
        try connection.execute(
            "INSERT INTO main.\(quoteIdentifier(join.target)) (\(columns.joined(separator: ", "))) SELECT \(owner), \(member), \(sourceOrder), \(destinationOrder) "
                + "FROM \(sourceTable(join.source)) AS j WHERE \(owner) IS NOT NULL AND \(member) IS NOT NULL ORDER BY \(owner), \(member)"
        )
        return connection.changes
    }

    // MARK: - External binary data

    /// Reads in, one file at a time, the values Core Data kept in files beside the store (marker byte
    /// 2, then the file's name) from `.<StoreName>_SUPPORT/_EXTERNAL_DATA/`. Returns the number of files.
    func readExternalData(_ table: CoreDataMapping.Table, storeFile: String) throws(RemodelError) -> Int {
        var files = 0
        let url = URL(fileURLWithPath: storeFile)
        let folder = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA").path
        for column in table.columns {
            for item in column.sources where item.isExternal {
                let raw = quoteIdentifier(item.column)
                let select = try connection.prepare(
                    "SELECT s.\(CoreDataName.primaryKey), substr(s.\(raw), 2) FROM \(sourceTable(table.source)) AS s WHERE \(Self.entityTest(item.numbers)) AND typeof(s.\(raw)) = 'blob' AND substr(s.\(raw), 1, 1) = X'02' ORDER BY s.\(CoreDataName.primaryKey)"
                )
                let update = try connection.prepare(
                    "UPDATE main.\(quoteIdentifier(table.target)) SET \(quoteIdentifier(column.target)) = ? WHERE \(StoreColumn.pk) = ?"
                )
                while try select.step() {
                    guard case .integer(let key) = select.value(at: 0), case .blob(let reference) = select.value(at: 1)
                    else { continue }
                    let name = String(decoding: reference.prefix { $0 != 0 }, as: UTF8.self)
                    let file = folder + "/" + name
                    guard !name.isEmpty, !name.contains("/"), let data = FileManager.default.contents(atPath: file)
                    else {
                        throw RemodelError(
                            .io,
                            "\(item.entity) \(CoreDataName.primaryKey) \(key) attribute \"\(item.property)\": its bytes are kept in the file \(file), which cannot be read; copy the store with its .\(url.deletingPathExtension().lastPathComponent)_SUPPORT folder and import again",
                            path: source, entity: item.entity, property: item.property, primaryKey: key)
                    }
                    try update.bind([.blob(data), .integer(key)])
                    _ = try update.step()
                    update.reset()
                    files += 1
                }
            }
        }
        return files
    }
}

extension SQLiteValue {
    /// The integer, if this is one.
    var coreDataInteger: Int64? { if case .integer(let value) = self { return value } else { return nil } }
}
