/// How destination objects get their `_pk`: the same as the source object's where a destination table is fed
/// from exactly one source table and no source object can arrive twice; otherwise new keys, recorded in a key
/// table — except for the objects of the table that *stays* (DESIGN.md, Migration 11): where one of the source
/// tables is the destination table itself (the same root entity, perhaps renamed: `Pet` when `Cat` moves
/// under it), its objects keep their keys and the others get keys above its largest. So a reference an app
/// declared to that table (a foreign key, an FTS `content_rowid`) still names the same objects; the tables
/// merged into it are gone, and a reference to one of them is refused at planning.
package struct KeyPlan {
    /// How one destination table gets its keys.
    package enum Mode: Equatable {
        /// Same `_pk` as in this source table.
        case preserved(sourceTable: String)
        /// New keys, recorded in ``KeyPlan/keyTable`` (but those of ``KeyPlan/staying(into:)``'s objects).
        case remapped
    }

    /// The key table in the destination store, dropped before the store is finished.
    static let keyTable = "_RemodelKeys"

    private(set) var modes: [String: Mode] = [:]
    /// The source table that stays in each remapped table that has one.
    private var stays: [String: String] = [:]
    /// The entity mappings (indexes into the mapping's entities) whose objects keep their source keys in a
    /// remapped table: the first from each entity of the table that stays.
    private(set) var keepingMappings: Set<Int> = []

    /// Plans keys for one step's mapping.
    package init(mapping: MappingModel, source: StoreLayout, destination: StoreLayout) {
        var feeders: [String: [(index: Int, sourceTable: String, sourceEntity: String)]] = [:]
        for (index, entity) in mapping.entities.enumerated() {
            guard let from = entity.source, let to = entity.destination,
                let sourceTable = source.table(forEntity: from)?.name,
                let destinationTable = destination.table(forEntity: to)?.name
            else { continue }
            feeders[destinationTable, default: []].append((index, sourceTable, from))
        }
        for (table, list) in feeders {
            let tables = Set(list.map(\.sourceTable))
            let entities = list.map(\.sourceEntity)
            if tables.count == 1, Set(entities).count == entities.count, let only = tables.first {
                modes[table] = .preserved(sourceTable: only)
                continue
            }
            modes[table] = .remapped
            guard
                let stay = Self.stayingTable(
                    of: table, feeders: tables, mapping: mapping, source: source,
                    destination: destination)
            else { continue }
            stays[table] = stay
            var seen: Set<String> = []
            for feeder in list where feeder.sourceTable == stay && seen.insert(feeder.sourceEntity).inserted {
                keepingMappings.insert(feeder.index)
            }
        }
    }

    /// The feeder of a destination table that is that table: the source table of the entity mapped into its
    /// root entity (an entity renamed keeps its table), else the feeder of the same name.
    private static func stayingTable(
        of table: String, feeders: Set<String>, mapping: MappingModel, source: StoreLayout, destination: StoreLayout
    ) -> String? {
        if let root = destination.tables.first(where: { $0.name == table })?.entities.first {
            for entity in mapping.entities where entity.destination.map({ SQLName.identical($0, root) }) == true {
                guard let from = entity.source, let sourceTable = source.table(forEntity: from),
                    sourceTable.entities.first == from, feeders.contains(sourceTable.name)
                else { continue }
                return sourceTable.name
            }
        }
        return feeders.contains(table) ? table : nil
    }

    /// The source table whose objects keep their keys in a remapped destination table, if one stays.
    func staying(into table: String) -> String? { stays[table] }

    /// The destination tables some of whose objects get new keys, each with the source tables they come from
    /// (those that stay keep theirs), for the plan's words.
    var renumbered: [(table: String, staying: String?)] {
        modes.filter { $0.value == .remapped }.keys.sorted().map { ($0, stays[$0]) }
    }

    package func mode(ofDestinationTable table: String) -> Mode? { modes[table] }

    /// Whether any table needs the key table.
    var needsKeyTable: Bool { modes.values.contains(.remapped) }

    static let createKeyTableSQL = """
        CREATE TABLE "_RemodelKeys" (mapping INTEGER NOT NULL, source_table TEXT NOT NULL, source_pk INTEGER NOT NULL, \
        destination_table TEXT NOT NULL, destination_pk INTEGER NOT NULL, PRIMARY KEY (mapping, source_pk)) WITHOUT ROWID
        """
    static let indexKeyTableSQL = """
        CREATE INDEX "_RemodelKeys_lookup" ON "_RemodelKeys" (source_table, source_pk, destination_table, destination_pk)
        """

    /// SQL for the destination `_pk` of the source object `sourcePK` (a column reference) of
    /// `sourceTable`, in `destinationTable`; NULL when it did not arrive there.
    func destinationKeySQL(
        sourcePK: String, sourceTable: String, destinationTable: String, parameters: inout [SQLiteValue]
    ) -> String {
        switch modes[destinationTable] {
        case .preserved(let feeder)?:
            return feeder == sourceTable ? sourcePK : "NULL"
        case .remapped?:
            parameters.append(.text(sourceTable))
            parameters.append(.text(destinationTable))
            return
                "(SELECT min(k.destination_pk) FROM \"_RemodelKeys\" AS k WHERE k.source_table = ? AND k.source_pk = \(sourcePK) AND k.destination_table = ?)"
        case nil:
            return "NULL"
        }
    }

    /// Whether a to-one column can take the source column's keys as they are: both are columns, the owner's
    /// table keeps its source keys, and the target's table keeps the keys of the source target's table.
    func canCopyLinks(
        _ relationship: Relationship, in destinationEntity: Entity, from sourceRelationship: Relationship,
        in sourceEntity: Entity,
        source: StoreLayout, destination: StoreLayout
    ) -> Bool {
        guard case .column? = source.storage(of: sourceRelationship.name, in: sourceEntity.name),
            case .column? = destination.storage(of: relationship.name, in: destinationEntity.name),
            let ownTable = destination.table(forEntity: destinationEntity.name)?.name,
            case .preserved? = mode(ofDestinationTable: ownTable),
            let targetName = relationship.destinationEntity,
            let targetTable = destination.table(forEntity: targetName)?.name,
            let sourceTargetName = sourceRelationship.destinationEntity,
            let sourceTargetTable = source.table(forEntity: sourceTargetName)?.name,
            case .preserved(let feeder)? = mode(ofDestinationTable: targetTable)
        else { return false }
        return feeder == sourceTargetTable
    }
}
