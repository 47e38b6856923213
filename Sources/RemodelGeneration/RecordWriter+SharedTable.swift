internal import Foundation

/// The part of the schema's file for a model with a table of several entities: `SharedTableRecord`, which the type of
/// each entity of such a table conforms to. GRDB's requests on a `TableRecord` read its whole table (`all()` has no
/// row filter), so the protocol gives such a type GRDB's own static API again — `all()`, `filter`, `order`,
/// `including`, `fetchAll`, `fetchOne(_:id:)`, `fetchCount`, `deleteAll`, `updateAll`, … with the same signatures —
/// on the rows whose `_entity` is the type's entity. Being a more refined protocol's, these are the ones a call on
/// the type picks. GRDB's own code, generic over `TableRecord`, still reads the whole table: then `init(row:)` refuses
/// a row of another entity, so no request returns one as the type.
extension RecordWriter {
    func sharedTableSupport() -> String {
        Self.sharedTableTemplate
            .replacingOccurrences(of: "SCHEMA", with: schema)
            .replacingOccurrences(of: "OPEN", with: open)
    }

    private static let sharedTableTemplate = #"""

        extension SCHEMA {
            /// The type of an entity whose table holds other entities' objects too: GRDB's static requests on it read
            /// the rows of its entity only (`_entity`), with GRDB's signatures.
            OPENprotocol SharedTableRecord: FetchableRecord, MutablePersistableRecord, Identifiable, Hashable where ID: DatabaseValueConvertible {
                /// The entity's name, as the store's `_entity` column holds it.
                static var entityName: String { get }
            }
        }

        fileprivate extension TableRecord {
            /// GRDB's `all()`: every row of the table.
            static func _wholeTable() -> QueryInterfaceRequest<Self> { all() }
        }

        extension SCHEMA.SharedTableRecord {
            /// Every object of the entity (not of the table's other entities).
            OPENstatic func all() -> QueryInterfaceRequest<Self> { _wholeTable().filter(Column("_entity") == entityName) }
            OPENstatic func none() -> QueryInterfaceRequest<Self> { all().none() }
            OPENstatic func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> { all().select(selection) }
            OPENstatic func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> { all().select(selection) }
            OPENstatic func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> { try all().select(selection) }
            OPENstatic func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> { try all().select(selection) }
            OPENstatic func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> { all().select(SQL(sql: sql, arguments: arguments)) }
            OPENstatic func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> { all().select(sqlLiteral) }
            OPENstatic func select<RowDecoder>(_ selection: [any SQLSelectable], as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder> { all().select(selection, as: type) }
            OPENstatic func select<RowDecoder>(_ selection: any SQLSelectable..., as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder> { all().select(selection, as: type) }
            OPENstatic func select<RowDecoder>(_ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: RowDecoder.Type = RowDecoder.self) rethrows -> QueryInterfaceRequest<RowDecoder> { try all().select(selection, as: type) }
            OPENstatic func select<RowDecoder>(sql: String, arguments: StatementArguments = StatementArguments(), as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder> { all().select(SQL(sql: sql, arguments: arguments), as: type) }
            OPENstatic func select<RowDecoder>(literal sqlLiteral: SQL, as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder> { all().select(sqlLiteral, as: type) }
            OPENstatic func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> { all().selectPrimaryKey(as: type) }
            OPENstatic func selectID() -> QueryInterfaceRequest<Self.ID> { all().selectID() }
            OPENstatic func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> { all().annotated(with: selection) }
            OPENstatic func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> { all().annotated(with: selection) }
            OPENstatic func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> { try all().annotated(with: selection) }
            OPENstatic func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> { try all().annotated(with: selection) }
            OPENstatic func annotated(with aggregates: AssociationAggregate<Self>...) -> QueryInterfaceRequest<Self> { all().annotated(with: aggregates) }
            OPENstatic func annotated(with aggregates: [AssociationAggregate<Self>]) -> QueryInterfaceRequest<Self> { all().annotated(with: aggregates) }
            OPENstatic func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self { all().annotated(withOptional: association) }
            OPENstatic func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self { all().annotated(withRequired: association) }
            OPENstatic func having(_ predicate: AssociationAggregate<Self>) -> QueryInterfaceRequest<Self> { all().having(predicate) }
            OPENstatic func filter(_ predicate: some SQLSpecificExpressible) -> QueryInterfaceRequest<Self> { all().filter(predicate) }
            OPENstatic func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> QueryInterfaceRequest<Self> { try all().filter(predicate) }
            OPENstatic func filter(id: ID) -> QueryInterfaceRequest<Self> { all().filter(id: id) }
            OPENstatic func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> { all().filter(ids: ids) }
            OPENstatic func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> { all().filter(key: key) }
            OPENstatic func filter(keys: some Collection<some DatabaseValueConvertible>) -> QueryInterfaceRequest<Self> { all().filter(keys: keys) }
            OPENstatic func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<Self> { all().filter(key: key) }
            OPENstatic func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> { all().filter(keys: keys) }
            OPENstatic func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> { all().filter(SQL(sql: sql, arguments: arguments)) }
            OPENstatic func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> { all().filter(sqlLiteral) }
            OPENstatic func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> { all().order(orderings) }
            OPENstatic func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> { all().order(orderings) }
            OPENstatic func order(_ orderings: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self> { try all().order(orderings) }
            OPENstatic func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self> { try all().order(orderings) }
            OPENstatic func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> { all().order(SQL(sql: sql, arguments: arguments)) }
            OPENstatic func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> { all().order(sqlLiteral) }
            OPENstatic func orderByPrimaryKey() -> QueryInterfaceRequest<Self> { all().orderByPrimaryKey() }
            OPENstatic func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> { all().limit(limit, offset: offset) }
            OPENstatic func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<Self> { all().aliased(alias) }
            OPENstatic func aliased(_ alias: TableAlias<Self>) -> QueryInterfaceRequest<Self> { all().aliased(alias) }
            OPENstatic func with<RowDecoder>(_ cte: CommonTableExpression<RowDecoder>) -> QueryInterfaceRequest<Self> { all().with(cte) }
            OPENstatic func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self { all().including(all: association) }
            OPENstatic func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self { all().including(optional: association) }
            OPENstatic func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self { all().including(required: association) }
            OPENstatic func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self { all().joining(optional: association) }
            OPENstatic func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self { all().joining(required: association) }
            OPENstatic func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }
            OPENstatic func fetchCursor(_ db: Database) throws -> RecordCursor<Self> { try all().fetchCursor(db) }
            OPENstatic func fetchAll(_ db: Database) throws -> [Self] { try all().fetchAll(db) }
            OPENstatic func fetchOne(_ db: Database) throws -> Self? { try all().fetchOne(db) }
            OPENstatic func fetchSet(_ db: Database) throws -> Set<Self> { try all().fetchSet(db) }
            OPENstatic func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> { try filter(ids: ids).fetchCursor(db) }
            OPENstatic func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] { try filter(ids: ids).fetchAll(db) }
            OPENstatic func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> { try filter(ids: ids).fetchSet(db) }
            OPENstatic func fetchOne(_ db: Database, id: ID) throws -> Self? { try filter(id: id).fetchOne(db) }
            OPENstatic func find(_ db: Database, id: ID) throws -> Self {
                guard let object = try fetchOne(db, id: id) else { throw recordNotFound(db, id: id) }
                return object
            }
            OPENstatic func fetchCursor(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> RecordCursor<Self> { try filter(keys: keys).fetchCursor(db) }
            OPENstatic func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> [Self] { try filter(keys: keys).fetchAll(db) }
            OPENstatic func fetchSet(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Set<Self> { try filter(keys: keys).fetchSet(db) }
            OPENstatic func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? { try filter(key: key).fetchOne(db) }
            OPENstatic func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
                guard let object = try fetchOne(db, key: key) else { throw recordNotFound(db, key: key) }
                return object
            }
            OPENstatic func fetchCursor(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> RecordCursor<Self> { try filter(keys: keys).fetchCursor(db) }
            OPENstatic func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] { try filter(keys: keys).fetchAll(db) }
            OPENstatic func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Set<Self> { try filter(keys: keys).fetchSet(db) }
            OPENstatic func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]?) throws -> Self? { try filter(key: key).fetchOne(db) }
            OPENstatic func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
                guard let object = try fetchOne(db, key: key) else { throw recordNotFound(key: key) }
                return object
            }
            OPENstatic func exists(_ db: Database, id: ID) throws -> Bool { try !filter(id: id).isEmpty(db) }
            OPENstatic func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool { try !filter(key: key).isEmpty(db) }
            OPENstatic func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool { try !filter(key: key).isEmpty(db) }
            @discardableResult OPENstatic func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }
            @discardableResult OPENstatic func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int { try filter(ids: ids).deleteAll(db) }
            @discardableResult OPENstatic func deleteOne(_ db: Database, id: ID) throws -> Bool { try filter(id: id).deleteAll(db) > 0 }
            @discardableResult OPENstatic func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int { try filter(keys: keys).deleteAll(db) }
            @discardableResult OPENstatic func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool { try filter(key: key).deleteAll(db) > 0 }
            @discardableResult OPENstatic func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int { try filter(keys: keys).deleteAll(db) }
            @discardableResult OPENstatic func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool { try filter(key: key).deleteAll(db) > 0 }
            @discardableResult OPENstatic func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int { try all().updateAll(db, onConflict: conflictResolution, assignments(databaseComponents)) }
            @discardableResult OPENstatic func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, assignment: (DatabaseComponents) throws -> ColumnAssignment) throws -> Int { try all().updateAll(db, onConflict: conflictResolution, [assignment(databaseComponents)]) }
            @discardableResult OPENstatic func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: [ColumnAssignment]) throws -> Int { try all().updateAll(db, onConflict: conflictResolution, assignments) }
            @discardableResult OPENstatic func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, _ assignments: ColumnAssignment...) throws -> Int { try all().updateAll(db, onConflict: conflictResolution, assignments) }
        }

        """#
}
