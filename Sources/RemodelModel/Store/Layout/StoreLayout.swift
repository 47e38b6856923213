/// How a store lays out one model version, exactly as `docs/STORE-LAYOUT.md`
/// describes: one table per hierarchy, to-one columns, order columns, join
/// tables and indexes. The store, the JSON exchange and the migrator all read
/// this one computation, so they can never disagree about a name.
///
/// For example:
/// ```swift
/// let layout = StoreLayout(version: bundle.currentVersion)
/// for sql in layout.createTablesSQL { try connection.execute(sql) }
/// ```
package struct StoreLayout: Sendable {
    /// One column of a hierarchy table.
    package struct Column: Sendable, Hashable {
        /// What a column holds.
        package enum Content: Sendable, Hashable {
            /// `_pk INTEGER PRIMARY KEY`.
            case primaryKey
            /// `_entity TEXT NOT NULL`, the concrete entity's name.
            case entityName
            /// An attribute (of the entity that first declares that name in the hierarchy).
            case attribute(entity: String, name: String, type: AttributeType)
            /// A to-one relationship holding the destination's `_pk`.
            case toOne(entity: String, relationship: String, destination: String)
            /// The position of this object in `owner.relationship`, an ordered to-many whose inverse to-one is
            /// this table's column `inverseColumn`.
            case order(owner: String, relationship: String, inverseColumn: String)
        }

        /// The column's name.
        package var name: String
        /// The declared SQLite type (`INTEGER`, `REAL`, `TEXT`, `BLOB`).
        package var declaredType: String
        /// What the column holds.
        package var content: Content
        /// For a derived attribute the store computes as a generated column (``DerivedColumn/Kind/generated``),
        /// the expression over the row's columns.
        package var generated: String? = nil

        /// The column definition for `CREATE TABLE` (and `ALTER TABLE … ADD COLUMN`).
        package var definitionSQL: String {
            switch content {
            case .primaryKey: return "\(quoteIdentifier(name)) INTEGER PRIMARY KEY"
            case .entityName: return "\(quoteIdentifier(name)) TEXT NOT NULL"
            default:
                guard let generated else { return "\(quoteIdentifier(name)) \(declaredType)" }
                return "\(quoteIdentifier(name)) \(declaredType) GENERATED ALWAYS AS (\(generated)) VIRTUAL"
            }
        }
    }

    /// The table of one entity hierarchy, named as its root entity.
    package struct Table: Sendable, Hashable {
        /// The table's name: the root entity's name.
        package var name: String
        /// The entities stored in it, parents before children.
        package var entities: [String]
        /// Its columns, in order.
        package var columns: [Column]

        /// The column with that name.
        package func column(named name: String) -> Column? { columns.first { $0.name == name } }
    }

    /// A join table of a many-to-many relationship or a to-many relationship without an inverse.
    package struct JoinTable: Sendable, Hashable {
        /// `_<Entity>_<relationship>` of the owner side.
        package var name: String
        /// The entity that declares the owner relationship; its objects' `_pk` are in `source`.
        package var sourceEntity: String
        /// The owner relationship.
        package var sourceRelationship: String
        /// The destination entity; its objects' `_pk` are in `destination`.
        package var destinationEntity: String
        /// The inverse relationship (declared by `destinationEntity` or an ancestor), if any.
        package var destinationRelationship: String?
        /// Whether `source_order` is used (the owner relationship is ordered).
        package var sourceIsOrdered: Bool
        /// Whether `destination_order` is used (the inverse relationship is ordered).
        package var destinationIsOrdered: Bool

        package static let sourceColumn = StoreColumn.joinSource
        package static let destinationColumn = StoreColumn.joinDestination
        package static let sourceOrderColumn = StoreColumn.joinSourceOrder
        package static let destinationOrderColumn = StoreColumn.joinDestinationOrder
    }

    /// An index, built after bulk loads.
    package struct Index: Sendable, Hashable {
        /// One indexed column and its direction.
        package struct Key: Sendable, Hashable {
            package var column: String
            package var ascending: Bool = true
            /// For a member of a composite attribute (`place.city`): the member's key path inside the column's
            /// JSON object (`["city"]`); the key is then the expression `json_extract("place", '$."city"')`.
            package var member: [String] = []

            /// A key on `column` (or on `member` inside it), ascending unless told.
            package init(column: String, ascending: Bool = true, member: [String] = []) {
                self.column = column
                self.ascending = ascending
                self.member = member
            }

            /// What the key indexes, as text: the column's name, or `column.member…` for a composite member.
            package var term: String { ([column] + member).joined(separator: ".") }

            /// The key's SQL: the quoted column, or the member's `json_extract` (an index on an expression, which
            /// SQLite uses for a query that names the same expression).
            package var sql: String { Self.sql(column: quoteIdentifier(column), member: member) }

            /// The SQL of a member of the composite stored in `column` (already quoted or qualified), or `column`.
            package static func sql(column: String, member: [String]) -> String {
                guard !member.isEmpty else { return column }
                let path = "$" + member.map { ".\"" + $0 + "\"" }.joined()
                return "json_extract(\(column), \(quoteLiteral(path)))"
            }
        }

        /// The index's name (always starting with `_`).
        package var name: String
        /// The table it is on.
        package var table: String
        /// Indexed columns, in order.
        package var keys: [Key]
        /// Whether the index enforces uniqueness.
        package var isUnique: Bool = false
        /// For a partial index: the `_entity` values it covers.
        package var entities: [String]? = nil
    }

    /// Where a relationship's objects are kept.
    package enum RelationshipStorage: Sendable, Hashable {
        /// A to-one relationship: a column of the owner's table holding the destination's `_pk`.
        case column(table: String, column: String)
        /// A to-many relationship whose inverse is to-one: the inverse's column in the destination's
        /// table, read backwards; `orderColumn` holds the positions when the relationship is ordered.
        case inverseColumn(table: String, column: String, orderColumn: String?)
        /// A join table; `ownerIsSource` tells whether the owner's `_pk` is in `source` (else in
        /// `destination`); `orderColumn` holds the positions of this side when it is ordered.
        case joinTable(name: String, ownerIsSource: Bool, orderColumn: String?)
    }

    /// The model version laid out.
    package let version: ModelVersion
    /// One table per hierarchy, in the order of the root entities in the file.
    package var tables: [Table] = []
    /// Join tables, in the order their owner relationships appear.
    package var joinTables: [JoinTable] = []
    /// Every index, in a fixed order.
    package var indexes: [Index] = []
    /// Every derived attribute the store computes, in the order of the entities and their attributes.
    package var derivedColumns: [DerivedColumn] = []

    package var tableIndexByEntity: [String: Int] = [:]
    var storageByProperty: [PropertyKey: RelationshipStorage] = [:]
    /// The column of each stored attribute and to-one relationship, by entity (declaring or inheriting), then by
    /// property. One dictionary an entity: a version laid out from the one before (``init(version:following:)``)
    /// shares the dictionary of each entity whose table it keeps.
    var columnsByEntity: [String: [String: String]] = [:]
    /// ``columnsByEntity`` by entity and property in one dictionary.
    var columnByProperty: [PropertyKey: String] {
        var result: [PropertyKey: String] = [:]
        for (entity, columns) in columnsByEntity {
            for (property, column) in columns { result[PropertyKey(entity: entity, property: property)] = column }
        }
        return result
    }
    /// The order column of an ordered to-many, by its inverse to-one (declaring entity, relationship).
    package var orderColumnByToOne: [PropertyKey: String] = [:]
    /// Table names given out, which join tables must not take.
    var reservedNames = NameAllocator()

    package struct PropertyKey: Hashable, Sendable {
        package var entity: String
        package var property: String

        package init(entity: String, property: String) {
            self.entity = entity
            self.property = property
        }
    }

    /// Computes the layout of a version.
    package init(version: ModelVersion) {
        self.version = version
        buildTables()
        buildRelationshipStorage()
        buildIndexes()
        buildDerivedColumns()
    }

    /// Computes the layout of a version from the layout of another version of the same model (in a chain, the
    /// version before): a hierarchy whose entities, and whatever else its table reads, are as they were there
    /// takes that table as it was, with its columns, instead of claiming every column name again. The result is
    /// the layout ``init(version:)`` computes; only the work differs.
    ///
    /// The relationships are stored as there too, without working each out again, when everything their storage
    /// reads is as it was (``storesRelationshipsAlike(_:)``): most steps of a long history change attributes only.
    package init(version: ModelVersion, following before: StoreLayout) {
        self.version = version
        buildTables(following: before)
        if storesRelationshipsAlike(before) {
            storageByProperty = before.storageByProperty
            joinTables = before.joinTables
            reservedNames = before.reservedNames
        } else {
            buildRelationshipStorage()
        }
        buildIndexes()
        buildDerivedColumns()
        #if DEBUG
            // Every test that plans a chain lays each version out both ways, and the two must agree.
            assert(isLaidOut(as: StoreLayout(version: version)), "\(version.name): a kept table differs from its build")
        #endif
    }

    /// Whether two layouts say the same in everything they answer (tables, columns, storage, join tables, indexes).
    func isLaidOut(as other: StoreLayout) -> Bool {
        tables == other.tables && tableIndexByEntity == other.tableIndexByEntity
            && columnsByEntity == other.columnsByEntity && orderColumnByToOne == other.orderColumnByToOne
            && storageByProperty == other.storageByProperty && joinTables == other.joinTables
            && indexes == other.indexes && reservedNames == other.reservedNames
            && derivedColumns == other.derivedColumns
            // `==` takes canonically equivalent names for one; the store's SQLite does not.
            && isSpelled(as: other)
    }

    /// Takes `other`'s value for each table, join table list and index list equal to its own, so the two share
    /// their storage: a chain's plan holds the layout of every version, and consecutive versions lay most tables
    /// out alike.
    package mutating func share(with other: StoreLayout) {
        for index in tables.indices {
            guard let known = other.table(forEntity: tables[index].name), known == tables[index],
                known.isSpelled(as: tables[index])
            else { continue }
            tables[index] = known
        }
        if joinTables == other.joinTables,
            Self.spelledAlike(joinTables.flatMap(\.names), other.joinTables.flatMap(\.names))
        {
            joinTables = other.joinTables
        }
        if indexes == other.indexes, Self.spelledAlike(indexes.flatMap(\.names), other.indexes.flatMap(\.names)) {
            indexes = other.indexes
        }
    }

    /// The table that stores an entity's objects.
    package func table(forEntity name: String) -> Table? {
        tableIndexByEntity[name].map { tables[$0] }
    }

    /// The join table with that name.
    package func joinTable(named name: String) -> JoinTable? { joinTables.first { $0.name == name } }

    /// The hierarchy table with that name.
    package func table(named name: String) -> Table? {
        // Mostly the table of the entity of that name (a hierarchy's table is named after its root); names are
        // given out once, so a table found so is the only one.
        if let index = tableIndexByEntity[name], tables[index].name == name { return tables[index] }
        return tables.first { $0.name == name }
    }

    /// Where a relationship of an entity (declared by it or inherited) is kept; `nil` for transient
    /// relationships and relationships whose destination does not exist.
    package func storage(of relationship: String, in entity: String) -> RelationshipStorage? {
        storageByProperty[PropertyKey(entity: entity, property: relationship)]
    }

    /// The column holding an attribute of an entity (declared by it or inherited).
    package func column(forAttribute attribute: String, in entity: String) -> Column? {
        guard let name = columnsByEntity[entity]?[attribute],
            let table = table(forEntity: entity),
            let column = table.column(named: name), case .attribute = column.content
        else { return nil }
        return column
    }

    /// The name of the column holding an attribute or to-one relationship of an entity (declared by it or
    /// inherited): the property's own name, unless another column of the table already has it in some case
    /// of letters (docs/STORE-LAYOUT.md, "Column names").
    package func columnName(of property: String, in entity: String) -> String? {
        columnsByEntity[entity]?[property]
    }

    /// The entity's stored attributes in resolved model order (inherited first).
    package func storedAttributes(of entity: Entity) -> [Attribute] {
        version.attributes(of: entity).filter(\.isStored)
    }

    /// The entity's stored relationships in resolved model order (inherited first).
    package func storedRelationships(of entity: Entity) -> [Relationship] {
        version.relationships(of: entity).filter { storage(of: $0.name, in: entity.name) != nil }
    }

    /// Concrete (non-abstract) entities, sorted by name in UTF-8 byte order: the order of a JSON export.
    package var concreteEntitiesByName: [Entity] {
        version.entities.filter { !$0.isAbstract }.sorted {
            Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8))
        }
    }

    /// The names of an entity and every entity inheriting from it: the `_entity` values a `_pk` of that kind may have.
    package func kinds(of entityName: String) -> [String] {
        guard let entity = version.entity(named: entityName) else { return [] }
        return version.hierarchy(of: entity).map(\.name)
    }
}
