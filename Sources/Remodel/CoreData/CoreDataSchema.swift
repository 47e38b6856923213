/// The tables, columns, indexes and entity numbers of a Core Data store, as its schema says: what the
/// importer reads names from instead of predicting them.
package struct CoreDataSchema: Sendable {
    /// A row of `Z_PRIMARYKEY`: an entity's number, name, parent's number (0 for a root) and largest `Z_PK`.
    struct EntityRow: Sendable, Hashable {
        var number: Int64
        var name: String
        var superNumber: Int64
        var maximumKey: Int64
    }

    /// A column: its name as written and its declared type in upper case (`VARCHAR`, `TIMESTAMP` …).
    struct Column: Sendable, Hashable {
        var name: String
        var type: String
    }

    /// One table's columns, in order.
    package struct Table: Sendable, Hashable {
        var name: String
        var columns: [Column]

        /// The column named `name`, compared without regard to ASCII case as SQLite does.
        func column(_ name: String) -> Column? {
            let key = CoreDataName.normalized(name)
            return columns.first { CoreDataName.normalized($0.name) == key }
        }
    }

    /// Every table but SQLite's own, by upper-case name.
    var tables: [String: Table] = [:]
    /// The names of every index (SQLite's automatic ones left out).
    var indexNames: Set<String> = []
    /// `Z_PRIMARYKEY`, in entity-number order.
    var entities: [EntityRow] = []
    /// For the columns of an entity table whose names differ only by the number Core Data adds to keep
    /// clashing names apart (`ZTEXT`, `ZTEXT1`): the entity numbers of the rows holding a value in each, by
    /// upper-case table then column name. Which property a numbered column holds is read from these: a
    /// column holds values only for the objects of the entity that declares its property.
    var occupancy: [String: [String: Set<Int64>]] = [:]

    /// The table named `name`, compared without regard to ASCII case.
    package func table(_ name: String) -> Table? { tables[CoreDataName.normalized(name)] }

    /// Tables Core Data keeps for itself, which are never imported: its bookkeeping (`Z_METADATA`,
    /// `Z_PRIMARYKEY`, `Z_MODELCACHE`), persistent history (`ATRANSACTION`, `ACHANGE`,
    /// `ATRANSACTIONSTRING`) and CloudKit mirroring (`ANSCK…`).
    static func isCoreDataOwn(_ name: String) -> Bool {
        CoreDataName.isBookkeeping(name)
    }

    /// Whether the database looks like a Core Data store: it has `Z_METADATA` and `Z_PRIMARYKEY`.
    package var isCoreDataStore: Bool {
        table(CoreDataName.metadataTable) != nil && table(CoreDataName.primaryKeyTable) != nil
    }

    /// Reads the schema (no row but `Z_PRIMARYKEY`'s).
    package static func read(from connection: SQLiteConnection, path: String) throws(RemodelError) -> CoreDataSchema {
        var schema = CoreDataSchema()
        let objects = try connection.rows(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        for row in objects {
            guard case .text(let type) = row[0], case .text(let name) = row[1] else { continue }
            if type == "index" {
                schema.indexNames.insert(name)
            } else if type == "table" {
                var columns: [Column] = []
                for column in try connection.rows("SELECT name, type FROM pragma_table_info(?)", [.text(name)]) {
                    guard case .text(let columnName) = column[0] else { continue }
                    let declared: String
                    if case .text(let text) = column[1] { declared = text.uppercased() } else { declared = "" }
                    columns.append(Column(name: columnName, type: declared))
                }
                schema.tables[CoreDataName.normalized(name)] = Table(name: name, columns: columns)
            }
        }
        guard schema.isCoreDataStore else { return schema }
        for row in try connection.rows(
            "SELECT \(CoreDataName.entityNumber), \(CoreDataName.entityName), \(CoreDataName.superEntity), \(CoreDataName.maximumKey) FROM \(CoreDataName.primaryKeyTable) ORDER BY \(CoreDataName.entityNumber)"
        ) {
            guard case .integer(let number) = row[0], case .text(let name) = row[1] else {
                throw RemodelError(
                    .notAStore,
                    "\(CoreDataName.primaryKeyTable) has a row without an entity number or name; the store may be damaged",
                    path: path)
            }
            let superNumber: Int64
            if case .integer(let value) = row[2] { superNumber = value } else { superNumber = 0 }
            let maximum: Int64
            if case .integer(let value) = row[3] { maximum = value } else { maximum = 0 }
            schema.entities.append(EntityRow(number: number, name: name, superNumber: superNumber, maximumKey: maximum))
        }
        // A hint to tell numbered columns apart: a table SQLite cannot read is said so by the copy, not here.
        for table in schema.tables.values { try? schema.readOccupancy(of: table, from: connection) }
        return schema
    }

    /// The columns of `table` whose names are one name with different numbers at the end, when the table
    /// has `Z_ENT`.
    static func numberedColumns(of table: Table) -> [String] {
        guard table.column(CoreDataName.entityNumber) != nil else { return [] }
        let candidates = table.columns.map(\.name).filter { !CoreDataName.normalized($0).hasPrefix("Z_") }
        let families = Dictionary(grouping: candidates, by: CoreDataName.withoutSuffix)
        return families.values.filter { $0.count > 1 }.flatMap { $0 }.sorted()
    }

    /// Reads which entity numbers hold values in each of `table`'s numbered columns (one scan of the table,
    /// only when it has some).
    private mutating func readOccupancy(of table: Table, from connection: SQLiteConnection) throws(RemodelError) {
        let columns = Self.numberedColumns(of: table)
        guard !columns.isEmpty else { return }
        let counts = columns.map { "count(\(quoteIdentifier($0)))" }.joined(separator: ", ")
        var found: [String: Set<Int64>] = [:]
        for column in columns { found[CoreDataName.normalized(column)] = [] }
        for row in try connection.rows(
            "SELECT \(CoreDataName.entityNumber), \(counts) FROM \(quoteIdentifier(table.name)) GROUP BY \(CoreDataName.entityNumber)"
        ) {
            guard case .integer(let number) = row[0] else { continue }
            for (offset, column) in columns.enumerated() where row[offset + 1] != .integer(0) {
                found[CoreDataName.normalized(column), default: []].insert(number)
            }
        }
        occupancy[CoreDataName.normalized(table.name)] = found
    }
}
