/// Decides, for one step, which destination tables are carried from the source store and how each of
/// their columns is made (see ``StorageChanges``). It reads the two layouts and the mapping only.
struct StepStorageAnalysis {
    let step: MigrationStep
    let source: StoreLayout
    let destination: StoreLayout
    let keys: KeyPlan
    /// Destination entities whose objects a Swift policy makes.
    let policies: Set<String>
    /// Destination tables that receive every object of their source table, each once, under its own key.
    private(set) var keepingKeys: [String: String] = [:]

    /// Column users by table and column name, in each layout (concrete entities by property, as the layout names the columns).
    private var sourceUsers: [String: [String: Set<String>]] = [:]
    private var destinationUsers: [String: [String: Set<String>]] = [:]
    /// Destination users of each column whose objects come from the source entity of the same name.
    private var arriving: [String: [String: Set<String>]] = [:]
    /// The first entity mapping from each source entity to the destination entity of the same name.
    private var sameName: [String: EntityMapping] = [:]

    /// The analysis of a step; `unchanged` names destination tables the step leaves as they were
    /// (``UnchangedTables``), which it is not asked about: their columns' users are not worked out.
    init(
        step: MigrationStep, source: StoreLayout, destination: StoreLayout, keys: KeyPlan, policies: Set<String>,
        unchanged: Set<String> = []
    ) {
        self.step = step
        self.source = source
        self.destination = destination
        self.keys = keys
        self.policies = policies
        // Both sized at once: a chain makes these for every step, and growing them rehashed what they held.
        sameName.reserveCapacity(step.mapping.entities.count)
        keepingKeys.reserveCapacity(destination.tables.count)
        for entityMapping in step.mapping.entities.reversed() {
            guard let source = entityMapping.source, let target = entityMapping.destination,
                SQLName.identical(source, target)
            else { continue }
            sameName[source] = entityMapping
        }
        for table in destination.tables {
            if unchanged.contains(table.name) {
                keepingKeys[table.name] = table.name
            } else if let feeder = feederKeepingEveryObject(table) {
                keepingKeys[table.name] = feeder
            }
        }
        let analysed = keepingKeys.filter { !unchanged.contains($0.key) }
        sourceUsers = Self.columnUsers(source, of: Set(analysed.values))
        destinationUsers = Self.columnUsers(destination, of: Set(analysed.keys))
        let mapped = Set(sameName.keys)
        arriving = destinationUsers.mapValues { columns in columns.mapValues { $0.intersection(mapped) } }
    }

    /// The concrete entities using each column of the named tables of a layout, by property.
    private static func columnUsers(_ layout: StoreLayout, of names: Set<String>) -> [String: [String: Set<String>]] {
        var users: [String: [String: Set<String>]] = [:]
        for table in layout.tables where names.contains(table.name) {
            var byColumn: [String: Set<String>] = [:]
            for name in table.entities {
                guard let entity = layout.version.entity(named: name), !entity.isAbstract else { continue }
                let properties =
                    layout.version.attributes(of: entity).map(\.name)
                    + layout.version.relationships(of: entity).map(\.name)
                for property in properties {
                    if let column = layout.columnName(of: property, in: name) {
                        byColumn[column, default: []].insert(name)
                    }
                }
            }
            users[table.name] = byColumn
        }
        return users
    }

    private var mapping: MappingModel { step.mapping }

    /// The source table whose objects all arrive in `table`, each once and unfiltered, under their own keys.
    private func feederKeepingEveryObject(_ table: StoreLayout.Table) -> String? {
        Self.feederKeepingEveryObject(
            table, source: source, destination: destination, mapping: mapping, keys: keys, policies: policies)
    }

    /// The source table whose objects all arrive in `table`, each once and unfiltered, under their own keys (also
    /// asked by ``UnchangedTables`` before any analysis).
    static func feederKeepingEveryObject(
        _ table: StoreLayout.Table, source: StoreLayout, destination: StoreLayout, mapping: MappingModel,
        keys: KeyPlan, policies: Set<String>
    ) -> String? {
        guard case .preserved(let feeder)? = keys.mode(ofDestinationTable: table.name),
            let sourceTable = source.tables.first(where: { $0.name == feeder })
        else { return nil }
        for entityName in sourceTable.entities {
            guard let entity = source.version.entity(named: entityName), !entity.isAbstract else { continue }
            let mappings = mapping.entities.filter { $0.source.map { SQLName.identical($0, entityName) } == true }
            guard mappings.count == 1, let only = mappings.first, only.filter == nil, let to = only.destination,
                !policies.contains(to), destination.table(forEntity: to)?.name == table.name
            else { return nil }
        }
        return feeder
    }

    /// Whether every concrete kind of `sourceTarget` (of the source version) arrives as a kind of `target` (of the
    /// destination version), both there.
    static func everyKindArrives(
        of sourceTarget: String, as target: String, source: ModelVersion, destination: ModelVersion,
        mapping: MappingModel
    ) -> Bool {
        guard let sourceTargetEntity = source.entity(named: sourceTarget), destination.entity(named: target) != nil
        else { return false }
        for kind in source.hierarchy(of: sourceTargetEntity) where !kind.isAbstract {
            guard
                let mapped = mapping.entities.first(where: {
                    $0.source.map { SQLName.identical($0, kind.name) } == true
                })?.destination,
                let arrived = destination.entity(named: mapped), destination.entity(arrived, isKindOf: target)
            else { return false }
        }
        return true
    }

    /// The entity mapping that fills a destination entity from the source entity of the same name.
    private func sameNameMapping(into entity: String) -> EntityMapping? { sameName[entity] }

    /// Concrete entities of a source table that use a column, by property.
    private func sourceUsers(of column: String, in table: StoreLayout.Table) -> Set<String> {
        sourceUsers[table.name]?[column] ?? []
    }

    /// Concrete destination entities using a column whose objects come from the source (a new entity has none yet).
    private func arrivingUsers(of column: String, in table: StoreLayout.Table) -> Set<String> {
        arriving[table.name]?[column] ?? []
    }

    // MARK: - Hierarchy tables

    func carried(_ table: StoreLayout.Table) -> StorageChanges.CarriedTable? {
        guard let feeder = keepingKeys[table.name], let sourceTable = source.tables.first(where: { $0.name == feeder })
        else {
            return nil
        }
        // Every object keeps its entity's name: `_entity` values do not change.
        for name in sourceTable.entities {
            guard let entity = step.source.entity(named: name), !entity.isAbstract else { continue }
            guard sameNameMapping(into: name) != nil, table.entities.contains(name) else { return nil }
        }
        var columns: [String: StorageChanges.ColumnOrigin] = [:]
        for column in table.columns {
            let origin: StorageChanges.ColumnOrigin?
            switch column.content {
            case .primaryKey, .entityName: continue
            case .attribute(_, let attribute, _):
                origin = attributeOrigin(column, attribute: attribute, in: table, from: sourceTable)
            case .toOne(let entity, let relationship, _):
                origin = toOneOrigin(column, entity: entity, relationship: relationship, in: table, from: sourceTable)
            case .order(_, _, let inverseColumn):
                origin = orderOrigin(inverseColumn: inverseColumn, carried: columns, from: sourceTable)
            }
            guard let origin else { return nil }
            columns[column.name] = origin
        }
        let used = columns.values.compactMap(\.column)
        guard Set(used).count == used.count else { return nil }
        let dropped = sourceTable.columns.filter { column in
            if case .primaryKey = column.content { return false }
            if case .entityName = column.content { return false }
            return !used.contains(column.name)
        }.map(\.name)
        // A dropped column stays until the step's phases are done (they may read it), and SQLite compares names
        // without letter case: a column of the new version named like it (`menuID` beside the dropped `menuId`)
        // could not be added or renamed to. Such a table is rebuilt.
        let names = Set(table.columns.map { SQLName($0.name) })
        guard !dropped.contains(where: { names.contains(SQLName($0)) }) else { return nil }
        return StorageChanges.CarriedTable(
            source: feeder, destination: table.name, columns: columns, droppedColumns: dropped)
    }

    /// The origin of an attribute column, or nil when some entity computes its value.
    private func attributeOrigin(
        _ column: StoreLayout.Column, attribute name: String, in table: StoreLayout.Table,
        from sourceTable: StoreLayout.Table
    ) -> StorageChanges.ColumnOrigin? {
        if case .attribute(let declaring, _, _) = column.content,
            let derived = destination.derivedColumn(of: name, in: declaring), derived.kind != .timestamp
        {
            return derivedOrigin(column, in: table, from: sourceTable)
        }
        var sourceColumn: String??
        var fills: [StorageChanges.Fill] = []
        for entityName in arrivingUsers(of: column.name, in: table).sorted() {
            guard let entity = step.destination.entity(named: entityName),
                let attribute = step.destination.attribute(named: name, in: entity),
                let entityMapping = sameNameMapping(into: entityName)
            else { return nil }
            let fallback = ModelDefaultValue.stored(for: attribute)
            let attributeMapping = entityMapping.attribute(name)
            var carried: String?
            var fill: (SQLiteValue, Bool)?
            if let value = attributeMapping?.value {
                guard let from = attributeMapping?.sourceAttribute, value.text == "$source.\(from)",
                    let fromColumn = source.column(forAttribute: from, in: entityName),
                    fromColumn.declaredType == column.declaredType,
                    // A generated column carried would stay generated: its values are copied into a table rebuilt.
                    fromColumn.generated == nil,
                    keepsCompositeShape(attribute, from: from, in: entityName)
                else { return nil }
                carried = fromColumn.name
                // Nils become the default only where the source allowed nils: a required source attribute's column
                // holds none (its own step checked it), and filling it would read every row of the table.
                let sourceAttribute = step.source.entity(named: entityName).flatMap {
                    step.source.attribute(named: from, in: $0)
                }
                if let fallback, !attribute.isOptional, sourceAttribute?.isOptional ?? true { fill = (fallback, true) }
            } else if let fallback {
                fill = (fallback, false)
            }
            if let known = sourceColumn, known != carried { return nil }
            sourceColumn = .some(carried)
            if let (value, onlyNulls) = fill {
                if let index = fills.firstIndex(where: { $0.value == value && $0.onlyNulls == onlyNulls }) {
                    fills[index].entities.append(entityName)
                } else {
                    fills.append(StorageChanges.Fill(value: value, entities: [entityName], onlyNulls: onlyNulls))
                }
            }
        }
        let carried = sourceColumn ?? nil
        // A source column kept by some entities only would keep the others' values: rebuild instead.
        if let carried, sourceUsers(of: carried, in: sourceTable) != arrivingUsers(of: column.name, in: table) {
            return nil
        }
        return StorageChanges.ColumnOrigin(column: carried, fills: fills)
    }

    /// The origin of the column of a derived attribute the store computes: the source's column of the same name
    /// where it is the same (a generated column with the same expression, or a plain column the step computes
    /// again), else a new column (an `ALTER TABLE … ADD COLUMN`: a generated one is added computed, a plain one
    /// computed once the step's rows are in). Never filled from the mapping.
    private func derivedOrigin(
        _ column: StoreLayout.Column, in table: StoreLayout.Table, from sourceTable: StoreLayout.Table
    ) -> StorageChanges.ColumnOrigin {
        guard let same = sourceTable.column(named: column.name), same.declaredType == column.declaredType,
            same.generated == column.generated
        else { return StorageChanges.ColumnOrigin(column: nil) }
        if column.generated != nil,
            sourceUsers(of: same.name, in: sourceTable) != arrivingUsers(of: column.name, in: table)
        {
            return StorageChanges.ColumnOrigin(column: nil)
        }
        return StorageChanges.ColumnOrigin(column: same.name)
    }

    /// The origin of a to-one column: the source column as it is when both ends keep their keys and every
    /// object it may point to arrives as a kind of the destination.
    private func toOneOrigin(
        _ column: StoreLayout.Column, entity declaring: String, relationship name: String, in table: StoreLayout.Table,
        from sourceTable: StoreLayout.Table
    ) -> StorageChanges.ColumnOrigin? {
        var sourceColumn: String??
        for entityName in arrivingUsers(of: column.name, in: table).sorted() {
            guard let entity = step.destination.entity(named: entityName),
                let relationship = step.destination.relationship(named: name, in: entity),
                let entityMapping = sameNameMapping(into: entityName)
            else { return nil }
            var carried: String?
            if let from = entityMapping.relationship(name)?.source {
                guard let sourceEntity = step.source.entity(named: entityName),
                    let sourceRelationship = step.source.relationship(named: from, in: sourceEntity),
                    case .column(_, let fromColumn)? = source.storage(of: from, in: entityName),
                    linksSurvive(relationship, from: sourceRelationship)
                else { return nil }
                carried = fromColumn
            }
            if let known = sourceColumn, known != carried { return nil }
            sourceColumn = .some(carried)
        }
        let carried = sourceColumn ?? nil
        if let carried, sourceUsers(of: carried, in: sourceTable) != arrivingUsers(of: column.name, in: table) {
            return nil
        }
        return StorageChanges.ColumnOrigin(column: carried)
    }

    /// An order column is carried with the to-one column it numbers, from the source's order column of that column.
    private func orderOrigin(
        inverseColumn: String, carried: [String: StorageChanges.ColumnOrigin], from sourceTable: StoreLayout.Table
    ) -> StorageChanges.ColumnOrigin? {
        guard let origin = carried[inverseColumn] else { return nil }
        guard let from = origin.column else { return StorageChanges.ColumnOrigin(column: nil) }
        for column in sourceTable.columns {
            if case .order(_, _, let numbered) = column.content, numbered == from {
                return StorageChanges.ColumnOrigin(column: column.name)
            }
        }
        return nil
    }

    /// Whether a relationship's source links stay true as they are: the objects at both ends keep their keys,
    /// and every object of the source destination arrives as a kind of the destination relationship's destination.
    private func linksSurvive(_ relationship: Relationship, from sourceRelationship: Relationship) -> Bool {
        guard let target = relationship.destinationEntity, let targetTable = destination.table(forEntity: target)?.name,
            let sourceTarget = sourceRelationship.destinationEntity,
            let sourceTargetTable = source.table(forEntity: sourceTarget)?.name,
            keepingKeys[targetTable] == sourceTargetTable
        else { return false }
        return Self.everyKindArrives(
            of: sourceTarget, as: target, source: step.source, destination: step.destination, mapping: mapping)
    }

    // MARK: - Join tables

    /// The source join table a destination join table is as it is, or nil.
    func carriedSource(of join: StoreLayout.JoinTable) -> String? {
        guard let ownerEntity = step.destination.entity(named: join.sourceEntity),
            let relationship = step.destination.relationship(named: join.sourceRelationship, in: ownerEntity),
            let ownerTable = destination.table(forEntity: ownerEntity.name)?.name
        else { return nil }
        var sourceJoin: String?
        for kind in step.destination.hierarchy(of: ownerEntity) where !kind.isAbstract {
            guard let entityMapping = sameNameMapping(into: kind.name),
                let from = entityMapping.relationship(join.sourceRelationship)?.source,
                let sourceEntity = step.source.entity(named: kind.name),
                let sourceRelationship = step.source.relationship(named: from, in: sourceEntity),
                case .joinTable(let name, true, _)? = source.storage(of: from, in: kind.name),
                let table = source.joinTable(named: name),
                table.sourceIsOrdered == join.sourceIsOrdered, table.destinationIsOrdered == join.destinationIsOrdered,
                sourceRelationship.isToMany, linksSurvive(relationship, from: sourceRelationship)
            else { return nil }
            if let known = sourceJoin, known != name { return nil }
            sourceJoin = name
        }
        guard let sourceJoin, let sourceTable = source.joinTable(named: sourceJoin),
            // The owners keep their keys and all arrive (no filter, no policy), as linksSurvive asks of the targets.
            let sourceOwnerTable = source.table(forEntity: sourceTable.sourceEntity)?.name,
            keepingKeys[ownerTable] == sourceOwnerTable
        else { return nil }
        // Every object holding links in the source table must hold them in this one.
        guard let sourceOwner = step.source.entity(named: sourceTable.sourceEntity) else { return nil }
        for kind in step.source.hierarchy(of: sourceOwner) where !kind.isAbstract {
            guard let mapped = sameNameMapping(into: kind.name)?.destination,
                let arrived = step.destination.entity(named: mapped),
                step.destination.entity(arrived, isKindOf: join.sourceEntity)
            else { return nil }
        }
        // The inverse side, when there is one, must come from the source inverse.
        if let inverseName = join.destinationRelationship,
            let target = step.destination.entity(named: join.destinationEntity)
        {
            for kind in step.destination.hierarchy(of: target) where !kind.isAbstract {
                guard let entityMapping = sameNameMapping(into: kind.name) else { return nil }
                let from = entityMapping.relationship(inverseName)?.source
                guard from == nil || from == sourceTable.destinationRelationship else { return nil }
            }
        }
        return sourceJoin
    }

    /// Whether a value of the source attribute `from` is stored as `attribute` stores it: a composite whose members
    /// the step changes is rewritten (``CompositeReshape``), never carried in its column as it is.
    private func keepsCompositeShape(_ attribute: Attribute, from: String, in entityName: String) -> Bool {
        guard attribute.type == .composite else { return true }
        guard
            let sourceAttribute = step.source.entity(named: entityName).flatMap({
                step.source.attribute(named: from, in: $0)
            })
        else { return false }
        return step.destination.hasSameCompositeShape(attribute, as: sourceAttribute, in: step.source)
    }
}
