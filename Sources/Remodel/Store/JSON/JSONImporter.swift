internal import Foundation

/// Reads a JSON file in the export shape and inserts its objects, parsing the
/// file incrementally: one object is in memory at a time. Relationship values
/// go to a temporary table and are reconciled in SQL (see
/// `JSONImporter+Relationships.swift`).
///
/// The caller runs ``load()`` then ``validate()`` inside one transaction.
final class JSONImporter {
    let layout: StoreLayout
    let connection: SQLiteConnection
    let path: String

    /// A relationship as declared (by its declaring entity), numbered for the links table.
    struct RelationshipID: Hashable {
        var entity: String
        var name: String
    }

    private(set) var relationshipIDs: [RelationshipID: Int64] = [:]
    /// The objects inserted so far.
    private(set) var objectCount = 0
    private var plans: [String: EntityPlan] = [:]
    private var insertLink: SQLiteStatement?
    /// Records the values the file gives for derived attributes (``checkDerivedValues()`` compares them).
    var insertDerived: SQLiteStatement?
    /// Told how many bytes of the file are read, as objects are loaded.
    var progress = OperationProgressReporter(nil)

    static let linksTable = "_remodel_import_links"
    static let pairsTable = "_remodel_import_pairs"

    init(layout: StoreLayout, connection: SQLiteConnection, path: String) {
        self.layout = layout
        self.connection = connection
        self.path = path
    }

    /// How one entity's objects are inserted.
    private struct EntityPlan {
        var entity: Entity
        var insert: SQLiteStatement
        /// Attribute codecs, by key, with the parameter position of each.
        var attributes: [String: (codec: AttributeCodec, parameter: Int)]
        var attributeOrder: [String]
        /// Relationships, by key, with their links-table id.
        var relationships: [String: (relationship: Relationship, id: Int64)]
        var parameterCount: Int
        /// The derived attributes the store computes, by key: a value given for one is checked, not written.
        var derived: [String: AttributeCodec] = [:]
    }

    /// The id of a relationship as declared by `entity` (or an ancestor).
    func relationshipID(_ relationship: Relationship, in entity: Entity) -> Int64 {
        let declaring = layout.version.declaringEntity(of: relationship, in: entity)
        let key = RelationshipID(entity: declaring.name, name: relationship.name)
        if let id = relationshipIDs[key] { return id }
        let id = Int64(relationshipIDs.count + 1)
        relationshipIDs[key] = id
        return id
    }

    // MARK: - Loading

    /// Streams the file and inserts every object and relationship value.
    func load() throws(RemodelError) {
        try connection.execute(
            "CREATE TEMP TABLE \(quoteIdentifier(Self.linksTable)) (rel INTEGER NOT NULL, owner INTEGER NOT NULL, target INTEGER, position INTEGER)"
        )
        insertLink = try connection.prepare("INSERT INTO temp.\(quoteIdentifier(Self.linksTable)) VALUES (?, ?, ?, ?)")
        try prepareDerivedValues()
        var parser = try JSONPullParser(path: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        progress.report("importing", item: nil, completed: 0, total: size, unit: .bytes)
        try parser.beginObject()
        while let entityName = try parser.nextKey() {
            let location = parser.location
            guard let entity = layout.version.entity(named: entityName) else {
                throw RemodelError(
                    .invalidValue, "unknown entity \"\(entityName)\" in the model", location: location,
                    entity: entityName)
            }
            guard !entity.isAbstract else {
                throw RemodelError(
                    .invalidValue,
                    "entity \"\(entityName)\" is abstract; list its objects under their concrete entities",
                    location: location, entity: entityName)
            }
            var plan = try self.plan(for: entity)
            try parser.beginArray()
            var ordinal = 0
            while try parser.hasNextElement() {
                ordinal += 1
                try loadObject(&parser, plan: &plan, ordinal: ordinal)
                progress.report("importing", item: entityName, completed: parser.bytesRead, total: size, unit: .bytes)
            }
            plans[entityName] = plan
        }
        try parser.expectEnd()
        progress.report("importing", item: nil, completed: size, total: size, unit: .bytes)
        insertLink = nil
        insertDerived = nil
        try connection.execute(
            "CREATE INDEX temp._remodel_import_links_index ON \(quoteIdentifier(Self.linksTable)) (rel, owner, target)")
    }

    private func plan(for entity: Entity) throws(RemodelError) -> EntityPlan {
        if let plan = plans[entity.name] { return plan }
        guard let table = layout.table(forEntity: entity.name) else {
            throw RemodelError(.invalidModel, "entity \"\(entity.name)\" has no table", entity: entity.name)
        }
        var columns = [StoreColumn.pk, StoreColumn.entity]
        var attributes: [String: (codec: AttributeCodec, parameter: Int)] = [:]
        var order: [String] = []
        var derived: [String: AttributeCodec] = [:]
        for attribute in layout.storedAttributes(of: entity) where attributes[attribute.name] == nil {
            if layout.storeComputes(attribute.name, in: entity.name) {
                derived[attribute.name] = try AttributeCodec(
                    attribute: attribute, entity: entity.name, version: layout.version)
                continue
            }
            let codec = try AttributeCodec(attribute: attribute, entity: entity.name, version: layout.version)
            attributes[attribute.name] = (codec, columns.count)
            order.append(attribute.name)
            columns.append(layout.columnName(of: attribute.name, in: entity.name) ?? attribute.name)
        }
        var relationships: [String: (relationship: Relationship, id: Int64)] = [:]
        for relationship in layout.storedRelationships(of: entity) {
            relationships[relationship.name] = (relationship, relationshipID(relationship, in: entity))
        }
        let sql =
            "INSERT INTO \(quoteIdentifier(table.name)) (" + columns.map(quoteIdentifier).joined(separator: ", ")
            + ") VALUES (\(placeholders(columns.count)))"
        return EntityPlan(
            entity: entity, insert: try connection.prepare(sql), attributes: attributes, attributeOrder: order,
            relationships: relationships, parameterCount: columns.count, derived: derived)
    }

    private func loadObject(_ parser: inout JSONPullParser, plan: inout EntityPlan, ordinal: Int) throws(RemodelError) {
        let location = parser.location
        let entityName = plan.entity.name
        guard try parser.nextIsObject() else {
            throw RemodelError(
                .invalidValue, "\(entityName) object #\(ordinal): expected an object", location: location,
                entity: entityName)
        }
        guard case .object(let members) = try parser.readValue() else { return }
        var primaryKey: Int64?
        if let given = members.first(where: { $0.key == StoreColumn.pk })?.value {
            guard case .number(let text) = given, let value = Int64(text) else {
                throw RemodelError(
                    .invalidValue,
                    "\(entityName) object #\(ordinal) \"\(StoreColumn.pk)\": expected an integer, found \(given.shortDescription)",
                    location: location, entity: entityName, property: StoreColumn.pk)
            }
            primaryKey = value
        }
        let subject = primaryKey.map { "\(entityName) _pk \($0)" } ?? "\(entityName) object #\(ordinal) (no _pk)"
        func failure(_ kind: String, _ name: String, _ message: String) -> RemodelError {
            RemodelError(
                .invalidValue, "\(subject) \(kind) \"\(name)\": \(message)", location: location, entity: entityName,
                property: name,
                primaryKey: primaryKey)
        }
        var values = [SQLiteValue](repeating: .null, count: plan.parameterCount)
        values[0] = primaryKey.map(SQLiteValue.integer) ?? .null
        values[1] = .text(entityName)
        var seen: Set<String> = [StoreColumn.pk]
        var relationshipValues: [(Int64, Relationship, JSONValue)] = []
        var derivedValues: [(String, SQLiteValue)] = []
        for (key, value) in members where key != StoreColumn.pk {
            guard seen.insert(key).inserted else { throw failure("key", key, "appears twice") }
            if let codec = plan.derived[key] {
                do {
                    derivedValues.append((key, try codec.storedValue(value)))
                } catch {
                    throw failure("attribute", key, error.message)
                }
            } else if let (codec, parameter) = plan.attributes[key] {
                do {
                    values[parameter] = try codec.storedValue(value)
                } catch {
                    throw failure("attribute", key, error.message)
                }
            } else if let (relationship, id) = plan.relationships[key] {
                relationshipValues.append((id, relationship, value))
            } else {
                throw RemodelError(
                    .invalidValue,
                    "\(subject): unknown key \"\(key)\"; \(entityName) has no stored attribute or relationship of that name",
                    location: location, entity: entityName, property: key, primaryKey: primaryKey)
            }
        }
        for name in plan.attributeOrder where !seen.contains(name) {
            guard let (codec, parameter) = plan.attributes[name] else { continue }
            let value = codec.defaultStoredValue
            if value.isNull && !codec.attribute.isOptional {
                throw failure("attribute", name, "a value is required, but the object has no \"\(name)\" key")
            }
            values[parameter] = value
        }
        try plan.insert.bind(values)
        do {
            try plan.insert.step()
        } catch {
            throw insertFailure(error, subject: subject, location: location, entity: entityName, primaryKey: primaryKey)
        }
        objectCount += 1
        let owner = primaryKey ?? connection.lastInsertedRowID
        for (attribute, value) in derivedValues {
            try recordDerived(value, of: attribute, entity: entityName, owner: owner, ordinal: ordinal)
        }
        for (id, relationship, value) in relationshipValues {
            try loadLinks(id: id, relationship: relationship, value: value, owner: owner) { message in
                failure("relationship", relationship.name, message)
            }
        }
    }

    private func insertFailure(
        _ error: RemodelError, subject: String, location: SourceLocation, entity: String, primaryKey: Int64?
    ) -> RemodelError {
        switch error.sqliteCode {
        case 1555:  // SQLITE_CONSTRAINT_PRIMARYKEY
            return RemodelError(
                .invalidValue,
                "\(subject): another object already has this _pk (objects without \"\(StoreColumn.pk)\" are numbered after the largest _pk so far)",
                location: location, entity: entity, property: StoreColumn.pk, primaryKey: primaryKey, cause: error)
        case 2067:  // SQLITE_CONSTRAINT_UNIQUE
            return RemodelError(
                .invalidValue, "\(subject): breaks a uniqueness constraint (\(error.message))", location: location,
                entity: entity,
                primaryKey: primaryKey, cause: error)
        default:
            return error
        }
    }

    private func loadLinks(
        id: Int64, relationship: Relationship, value: JSONValue, owner: Int64, failure: (String) -> RemodelError
    ) throws(RemodelError) {
        guard let insertLink else { return }
        func link(_ target: SQLiteValue, _ position: SQLiteValue) throws(RemodelError) {
            try insertLink.bind([.integer(id), .integer(owner), target, position])
            try insertLink.step()
        }
        try link(.null, .null)  // marks the relationship as given for this object
        if relationship.isToMany {
            guard case .array(let items) = value else {
                throw failure("expected an array of _pk, found \(value.shortDescription)")
            }
            for (position, item) in items.enumerated() {
                guard case .number(let text) = item, let target = Int64(text) else {
                    throw failure("expected an array of _pk, found \(item.shortDescription) in it")
                }
                try link(.integer(target), .integer(Int64(position)))
            }
        } else {
            switch value {
            case .null:
                break
            case .number(let text):
                guard let target = Int64(text) else { throw failure("expected a _pk or null, found \(text)") }
                try link(.integer(target), .null)
            default:
                throw failure("expected a _pk or null, found \(value.shortDescription)")
            }
        }
    }

    /// Drops the temporary tables.
    func finish() throws(RemodelError) {
        try connection.execute(
            "DROP TABLE IF EXISTS temp.\(quoteIdentifier(Self.linksTable)); DROP TABLE IF EXISTS temp.\(quoteIdentifier(Self.pairsTable)); DROP TABLE IF EXISTS temp.\(quoteIdentifier(Self.derivedTable))"
        )
    }
}
