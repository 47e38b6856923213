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
            let key = name.uppercased()
            return columns.first { $0.name.uppercased() == key }
        }
    }

    /// Every table but SQLite's own, by upper-case name.
    var tables: [String: Table] = [:]
    /// The names of every index (SQLite's automatic ones left out).
    var indexNames: Set<String> = []
    /// `Z_PRIMARYKEY`, in entity-number order.
    var entities: [EntityRow] = []

    /// The table named `name`, compared without regard to ASCII case.
    package func table(_ name: String) -> Table? { tables[name.uppercased()] }

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
                schema.tables[name.uppercased()] = Table(name: name, columns: columns)
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
        return schema
    }
}
