import Foundation
import Testing

@testable import Remodel

/// Writes a store shaped as Core Data shapes one, from any model version, following Core Data's naming
/// rules (docs/CORE-DATA-STORES.md): entity numbers depth-first with siblings in case-insensitive order;
/// one table `Z<ROOT>` per hierarchy; a column `Z<NAME>` per stored attribute and to-one, with a number
/// added where the name is taken (`ZTEXT1`), the entity number `Z<n>_<NAME>` beside a to-one into a
/// hierarchy, `Z_FOK_<NAME>` beside a to-one whose inverse is ordered; a join table `Z_<n><RELATIONSHIP>`
/// per many-to-many and to-many without an inverse, its columns `Z_<n><NAME>` numbered where the name is
/// taken in any join table (`Z_23USERS1`), and `Z_FOK_…` for ordered sides.
///
/// Which property gets a number is not documented and changes between OS releases, so it is drawn from
/// the seed: across entities and join tables in any order; within one entity in declaration order (the
/// one case the store cannot tell, docs/CORE-DATA-STORES.md). The numbers in join names may be drawn from
/// another numbering (`staleJoinNumbers`: a store whose entities were renumbered by a later version).
///
/// The builder keeps its own record of which column holds which property and of every value it wrote;
/// ``check(imported:)`` compares an imported Remodel store with that record object by object.
struct CoreDataShapedStore {
    let version: ModelVersion
    let layout: StoreLayout
    /// Each entity's number (`Z_ENT`).
    private(set) var numbers: [String: Int64] = [:]
    /// Each root's table.
    private(set) var tables: [String: String] = [:]
    /// The column of each stored attribute and to-one, by `Entity.property` of the declaring entity.
    private(set) var columns: [String: String] = [:]
    /// Each root table's columns after `Z_PK`, `Z_ENT`, `Z_OPT`, with their declared types.
    private var definitions: [String: [(name: String, type: String)]] = [:]
    /// Each Remodel join table's Core Data table, owners' column and members' column.
    private(set) var joins: [String: (table: String, owners: String, members: String)] = [:]
    /// Every object: its root, concrete entity and the values written, by upper-case column name.
    private(set) var objects: [(root: String, entity: String, key: Int64, values: [String: SQLiteValue])] = []
    /// Every link written, by Remodel join table: (owner's key, member's key).
    private(set) var links: [String: Set<[Int64]>] = [:]

    private var random: SplitMix64
    private var statements: [String] = []

    /// Lays the version out and fills it: `objectsPerEntity` objects of each concrete entity.
    init(
        version: ModelVersion, seed: UInt64, objectsPerEntity: Int = 3, staleJoinNumbers: Bool = false
    ) {
        self.version = version
        layout = StoreLayout(version: version)
        random = SplitMix64(seed: seed)
        numberEntities()
        nameColumns()
        nameJoins(stale: staleJoinNumbers)
        fill(objectsPerEntity: objectsPerEntity)
    }

    // MARK: - Names

    private mutating func numberEntities() {
        var next: Int64 = 1
        func visit(_ entities: [Entity]) {
            for entity in entities.sorted(by: { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }) {
                numbers[entity.name] = next
                next += 1
                visit(version.subentities(of: entity))
            }
        }
        visit(version.rootEntities)
    }

    /// The stored attributes and to-ones each entity of a hierarchy declares, in declaration order.
    private func declared(by entity: Entity) -> [(name: String, type: AttributeType?)] {
        entity.attributes.filter(\.isStored).map { ($0.name, $0.type) }
            + entity.relationships.filter { !$0.isToMany && layout.isStored($0) }.map { ($0.name, nil) }
    }

    private mutating func nameColumns() {
        for root in version.rootEntities {
            tables[root.name] = "Z" + root.name.uppercased()
            var taken: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            // Entities in a drawn order; each entity's properties in declaration order.
            var entities = version.hierarchy(of: root)
            entities.shuffle(using: &random)
            var defined: [(name: String, type: String)] = []
            for entity in entities {
                for property in declared(by: entity) {
                    let column = Self.unique("Z" + property.name.uppercased(), in: &taken)
                    columns["\(entity.name).\(property.name)"] = column
                    guard let type = property.type else {
                        defined.append((column, "INTEGER"))
                        if let destination = destination(of: property.name, in: entity),
                            !version.subentities(of: destination).isEmpty
                        {
                            let number = Self.entityNumberColumn(
                                beside: column, destination: numbers[destination.name] ?? 0)
                            defined.append((number, "INTEGER"))
                        }
                        if layout.orderColumnByToOne[
                            StoreLayout.PropertyKey(entity: entity.name, property: property.name)]
                            != nil
                        {
                            defined.append(("Z_FOK_" + column.dropFirst(), "INTEGER"))
                        }
                        continue
                    }
                    defined.append((column, CoreDataValues.declaredTypes(of: type)?.sorted().last ?? "BLOB"))
                }
            }
            definitions[root.name] = defined
        }
    }

    /// The destination of `entity`'s relationship `name`.
    private func destination(of name: String, in entity: Entity) -> Entity? {
        entity.relationships.first { $0.name == name }?.destinationEntity.flatMap(version.entity(named:))
    }

    /// The entity that declares the attribute `name` (`entity` or an ancestor).
    private func declarer(of name: String, in entity: Entity) -> Entity {
        var current: Entity? = entity
        while let found = current {
            if found.attributes.contains(where: { $0.name == name }) { return found }
            current = version.parent(of: found)
        }
        return entity
    }

    /// `name`, or `name1`, `name2` … when it is taken.
    private static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 1
        while !taken.insert(candidate.uppercased()).inserted {
            candidate = name + String(number)
            number += 1
        }
        return candidate
    }

    private mutating func nameJoins(stale: Bool) {
        // A stale numbering: the one a version with another entity first would have given.
        var joinNumbers = numbers
        if stale { for (name, number) in numbers { joinNumbers[name] = number + 2 } }
        var takenTables: Set<String> = []
        var takenColumns: Set<String> = []
        var order = layout.joinTables
        order.shuffle(using: &random)
        for join in order {
            let owner = joinNumbers[join.sourceEntity] ?? 0
            let member = joinNumbers[join.destinationEntity] ?? 0
            let relationship = join.sourceRelationship.uppercased()
            let inverse = join.destinationRelationship?.uppercased()
            // Which side names the table is drawn (it is not documented either).
            let namedAfterInverse = inverse != nil && Bool.random(using: &random)
            let tableName =
                namedAfterInverse ? "Z_\(member)\(inverse ?? "")" : "Z_\(owner)\(relationship)"
            let table = Self.unique(tableName, in: &takenTables)
            let members = Self.unique("Z_\(member)\(relationship)", in: &takenColumns)
            let owners = Self.unique("Z_\(owner)\(inverse ?? relationship + "INVERSE")", in: &takenColumns)
            joins[join.name] = (table, owners, members)
        }
    }

    // MARK: - Values

    private mutating func fill(objectsPerEntity: Int) {
        var keysByRoot: [String: Int64] = [:]
        var keysOfEntity: [String: [Int64]] = [:]
        for entity in version.entities where !entity.isAbstract {
            let root = version.root(of: entity).name
            for _ in 0..<objectsPerEntity {
                let key = (keysByRoot[root] ?? 0) + 1
                keysByRoot[root] = key
                keysOfEntity[entity.name, default: []].append(key)
                objects.append((root, entity.name, key, [:]))
            }
        }
        func keys(ofKindsOf entity: String) -> [Int64] {
            guard let found = version.entity(named: entity) else { return [] }
            return version.hierarchy(of: found).flatMap { keysOfEntity[$0.name] ?? [] }
        }
        func entityOf(key: Int64, root: String) -> String? {
            objects.first { $0.root == root && $0.key == key }?.entity
        }
        for index in objects.indices {
            let object = objects[index]
            guard let entity = version.entity(named: object.entity) else { continue }
            var values: [String: SQLiteValue] = [
                "Z_PK": .integer(object.key), "Z_ENT": .integer(numbers[object.entity] ?? 0), "Z_OPT": .integer(1),
            ]
            for attribute in version.attributes(of: entity) where attribute.isStored {
                let owner = declarer(of: attribute.name, in: entity)
                guard let column = columns["\(owner.name).\(attribute.name)"] else { continue }
                let unique = entity.uniquenessConstraints.contains { $0.properties.contains(attribute.name) }
                values[column] = value(
                    of: attribute, key: object.key, unique: unique,
                    external: attribute.source.attributes["allowsExternalBinaryDataStorage"] == "YES")
            }
            for relationship in version.relationships(of: entity)
            where !relationship.isToMany && layout.isStored(relationship) {
                let owner = version.declaringEntity(of: relationship, in: entity)
                guard let column = columns["\(owner.name).\(relationship.name)"],
                    let destination = relationship.destinationEntity
                else { continue }
                let candidates = keys(ofKindsOf: destination)
                let inUniqueness = entity.uniquenessConstraints.contains { $0.properties.contains(relationship.name) }
                guard !candidates.isEmpty, !(relationship.isOptional && (inUniqueness || Bool.random(using: &random)))
                else { continue }
                let key = candidates.randomElement(using: &random) ?? 0
                values[column] = .integer(key)
                let destinationRoot = version.entity(named: destination).map { version.root(of: $0).name } ?? ""
                if let target = version.entity(named: destination), !version.subentities(of: target).isEmpty,
                    let concrete = entityOf(key: key, root: destinationRoot)
                {
                    values[Self.entityNumberColumn(beside: column, destination: numbers[destination] ?? 0)] =
                        .integer(numbers[concrete] ?? 0)
                }
                if layout.orderColumnByToOne[StoreLayout.PropertyKey(entity: owner.name, property: relationship.name)]
                    != nil
                {
                    values["Z_FOK_" + column.dropFirst()] = .integer(Int64.random(in: 1...8, using: &random) * 1024)
                }
            }
            objects[index].values = values
        }
        for join in layout.joinTables {
            let owners = keys(ofKindsOf: join.sourceEntity)
            let members = keys(ofKindsOf: join.destinationEntity)
            var pairs: Set<[Int64]> = []
            for owner in owners {
                for member in members where Int.random(in: 0..<3, using: &random) == 0 {
                    pairs.insert([owner, member])
                }
            }
            links[join.name] = pairs
        }
    }

    /// `Z<n>_<NAME>` beside the to-one column `Z<NAME>`.
    static func entityNumberColumn(beside column: String, destination: Int64) -> String {
        "Z\(destination)_" + column.dropFirst()
    }

    /// A value of the attribute's type as Core Data keeps it; nil now and then where optional.
    private mutating func value(of attribute: Attribute, key: Int64, unique: Bool, external: Bool) -> SQLiteValue {
        if attribute.isOptional, !unique, Int.random(in: 0..<4, using: &random) == 0 { return .null }
        let number = unique ? key : Int64.random(in: -1000...1000, using: &random)
        switch attribute.type {
        case .integer16, .integer32, .integer64: return .integer(number)
        case .boolean: return .integer(unique ? key % 2 : Int64.random(in: 0...1, using: &random))
        case .double, .float: return .real(Double(number) / 4)
        case .decimal: return .integer(number)
        case .date: return .real(Double(number) * 86_400.5)
        case .string: return .text("\(attribute.name) \(number) é")
        case .uri: return .text("https://example.org/\(number)")
        case .uuid:
            return .blob(Data((0..<16).map { UInt8(truncatingIfNeeded: Int(number) &* 31 &+ $0) }))
        case .binary, .transformable:
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: Int(number) &+ $0) }
            return .blob(Data(external ? [1] + bytes : bytes))
        case .objectID, .undefined, .composite: return .null
        }
    }

    // MARK: - Writing

    /// Writes the store at `path`.
    func write(to path: String) throws {
        let connection = try SQLiteConnection(path: path, mode: .create)
        let identifier = CoreDataModelFacts.read(version).versionIdentifier
        try connection.execute(
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        for entity in version.entities {
            let parent = version.parent(of: entity).flatMap { numbers[$0.name] } ?? 0
            let maximum =
                version.parent(of: entity) == nil
                ? objects.filter { $0.root == entity.name }.map(\.key).max() ?? 0 : 0
            try connection.run(
                "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)",
                [.integer(numbers[entity.name] ?? 0), .text(entity.name), .integer(parent), .integer(maximum)])
        }
        try connection.execute(
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        let plist = BinaryPropertyListWriter.encode(
            .dictionary([
                (
                    "NSStoreModelVersionHashes",
                    .dictionary(version.entities.map { ($0.name, .data(Array(repeating: 7, count: 32))) })
                ),
                ("NSStoreModelVersionIdentifiers", .array([.string(identifier)])),
                ("NSStoreModelVersionHashesVersion", .integer(3)), ("NSPersistenceFrameworkVersion", .integer(1344)),
            ]))
        try connection.run("INSERT INTO Z_METADATA VALUES (1, 'SHAPED', ?)", [.blob(Data(plist))])
        try connection.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        try connection.run(
            "INSERT INTO Z_MODELCACHE VALUES (?)",
            [.blob(Data(ModelCacheWriter.cache(of: version, identifiers: [identifier])))])
        for root in version.rootEntities {
            let table = tables[root.name] ?? ""
            let defined =
                [("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER")]
                + (self.definitions[root.name] ?? [])
            let names = defined.map(\.0)
            let definitions = defined.map { "\($0.0) \($0.1)" }
            try connection.execute("CREATE TABLE \(table) (\(definitions.joined(separator: ", ")))")
            for object in objects where object.root == root.name {
                let placeholders = names.map { _ in "?" }.joined(separator: ", ")
                try connection.run(
                    "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(placeholders))",
                    names.map { object.values[$0] ?? .null })
            }
        }
        for join in layout.joinTables {
            guard let (table, owners, members) = joins[join.name] else { continue }
            var definitions = ["\(owners) INTEGER", "\(members) INTEGER"]
            if join.sourceIsOrdered { definitions.append("Z_FOK_\(members.dropFirst(2)) INTEGER") }
            if join.destinationIsOrdered { definitions.append("Z_FOK_\(owners.dropFirst(2)) INTEGER") }
            try connection.execute("CREATE TABLE \(table) (\(definitions.joined(separator: ", ")))")
            for (position, pair) in (links[join.name] ?? []).sorted(by: { $0.lexicographicallyPrecedes($1) })
                .enumerated()
            {
                var values: [SQLiteValue] = [.integer(pair[0]), .integer(pair[1])]
                if join.sourceIsOrdered { values.append(.integer(Int64(position + 1) * 1024)) }
                if join.destinationIsOrdered { values.append(.integer(Int64(position + 1) * 512)) }
                try connection.run(
                    "INSERT INTO \(table) VALUES (\(values.map { _ in "?" }.joined(separator: ", ")))", values)
            }
        }
    }

    // MARK: - Checking

    /// Compares the imported Remodel store with what was written: every object's entity, every stored
    /// attribute's value (as Remodel keeps it), every to-one and every link.
    func check(imported store: SQLiteConnection, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for object in objects {
            guard let entity = version.entity(named: object.entity),
                let table = layout.table(forEntity: object.entity)
            else { continue }
            let statement = try store.prepare("SELECT * FROM \(quoteIdentifier(table.name)) WHERE _pk = ?")
            let row = try store.rows(
                "SELECT * FROM \(quoteIdentifier(table.name)) WHERE _pk = ?", [.integer(object.key)]
            ).first
            guard let row else {
                Issue.record("\(object.entity) Z_PK \(object.key) was not imported", sourceLocation: sourceLocation)
                continue
            }
            let found = Dictionary(
                uniqueKeysWithValues: (0..<row.count).map { (statement.columnName(at: $0), row[$0]) })
            #expect(found["_entity"] == .text(object.entity), sourceLocation: sourceLocation)
            for attribute in version.attributes(of: entity) where attribute.isStored {
                let owner = declarer(of: attribute.name, in: entity)
                guard let source = columns["\(owner.name).\(attribute.name)"],
                    let target = layout.columnName(of: attribute.name, in: entity.name)
                else { continue }
                let written = object.values[source] ?? .null
                #expect(
                    found[target] == Self.expected(written, attribute: attribute),
                    "\(object.entity) Z_PK \(object.key) \(attribute.name) (written in \(source))",
                    sourceLocation: sourceLocation)
            }
            for relationship in version.relationships(of: entity)
            where !relationship.isToMany && layout.isStored(relationship) {
                let owner = version.declaringEntity(of: relationship, in: entity)
                guard let source = columns["\(owner.name).\(relationship.name)"],
                    let target = layout.columnName(of: relationship.name, in: entity.name)
                else { continue }
                #expect(
                    found[target] == (object.values[source] ?? .null),
                    "\(object.entity) Z_PK \(object.key) \(relationship.name) (written in \(source))",
                    sourceLocation: sourceLocation)
            }
        }
        for join in layout.joinTables {
            var pairs: Set<[Int64]> = []
            for row in try store.rows("SELECT source, destination FROM \(quoteIdentifier(join.name))") {
                if case .integer(let owner) = row[0], case .integer(let member) = row[1] {
                    pairs.insert([owner, member])
                }
            }
            #expect(pairs == links[join.name] ?? [], "links of \(join.name)", sourceLocation: sourceLocation)
        }
    }

    /// The value Remodel keeps for a value Core Data wrote.
    static func expected(_ value: SQLiteValue, attribute: Attribute) -> SQLiteValue {
        let external = attribute.source.attributes["allowsExternalBinaryDataStorage"] == "YES"
        switch (attribute.type, value) {
        case (.decimal, .integer(let number)): return .text(String(number))
        case (.binary, .blob(let bytes)) where external: return .blob(bytes.dropFirst())
        default: return CoreDataReference.expected(value, type: attribute.type)
        }
    }
}
