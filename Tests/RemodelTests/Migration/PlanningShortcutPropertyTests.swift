import Foundation
import Testing

@testable import Remodel

/// Two roads to one plan, for the shortcuts that make planning a long history cheaper (issue 29, session 10):
/// each is held, over random histories, to the plain computation it replaces.
///
/// - A chain's step plans, each carrying the tables it and the step before leave as they were as the step
///   before carried them, against each step planned alone.
/// - The layout's tables, built by entity position with each ordered to-many's inverse found once, against the
///   tables built as before: by entity value, the inverse looked for again for every table.
/// - Inference that reuses the step before's copy of an entity unchanged in both steps, against inference of
///   each step alone.
/// - ``UnchangedTables/copiesEveryProperty(_:of:in:inOrder:)`` walking a copy's properties in order, against
///   the answer made of sets, on inferred mappings and on mappings changed so that the answer is no.
/// - SQL names claimed with their case folded in place, against the folded string made as before.
@Suite struct PlanningShortcutPropertyTests {
    /// Seeds run in the everyday suite; `REMODEL_PROPERTY_SEEDS` raises the count.
    static let seeds: [UInt64] = Array(
        1...UInt64(ProcessInfo.processInfo.environment["REMODEL_PROPERTY_SEEDS"].flatMap { Int($0) } ?? 40))

    /// Every version of random histories of both generators, each history's versions in order.
    private static func histories(seed: UInt64) throws -> [[ModelVersion]] {
        var random = RandomHistory(seed: seed)
        var versions = [try random.version(number: 1)]
        for number in 2...random.versionCount {
            random.mutate()
            versions.append(try random.version(number: number))
        }
        var generator = HistoryGenerator(seed: seed)
        let generated = try generator.history(versions: 12)
        return [versions, generated.parsed]
    }

    @Test func theLayoutIsTheOneBuiltEntityByEntity() throws {
        var tables = 0
        var orderColumns = 0
        for seed in Self.seeds {
            for versions in try Self.histories(seed: seed) {
                for version in versions {
                    let layout = StoreLayout(version: version)
                    let reference = StoreLayout.reference(version: version)
                    let name = "seed \(seed), \(version.name)"
                    #expect(layout.tables == reference.tables, "\(name): tables")
                    #expect(layout.tableIndexByEntity == reference.tableIndexByEntity, "\(name): tables by entity")
                    #expect(layout.columnByProperty == reference.columnByProperty, "\(name): columns")
                    #expect(layout.orderColumnByToOne == reference.orderColumnByToOne, "\(name): order columns")
                    #expect(layout.storageByProperty == reference.storageByProperty, "\(name): relationships")
                    #expect(layout.joinTables == reference.joinTables, "\(name): join tables")
                    #expect(layout.indexes == reference.indexes, "\(name): indexes")
                    tables += layout.tables.count
                    orderColumns += layout.orderColumnByToOne.count
                }
            }
        }
        // The histories have hierarchies and ordered to-manys, the parts the two roads build differently.
        #expect(tables > 40 * Self.seeds.count)
        #expect(orderColumns > Self.seeds.count)
    }

    @Test func aChainPlansEachStepAsItIsPlannedAlone() throws {
        var reused = 0
        for seed in Self.seeds {
            for versions in try Self.histories(seed: seed) {
                let steps = zip(versions, versions.dropFirst()).map { source, destination in
                    MigrationStep(
                        source: source, destination: destination,
                        mapping: MappingInference.infer(from: source, to: destination, modelName: "History"))
                }
                let chained = StepPlan.chain(steps) { _ in [] }
                for (index, (plan, step)) in zip(chained, steps).enumerated() {
                    let alone = StepPlan(
                        step: step, sourceLayout: StoreLayout(version: step.source),
                        destinationLayout: StoreLayout(version: step.destination), policies: [])
                    let name = "seed \(seed), \(plan.name)"
                    #expect(plan.destinationLayout.tables == alone.destinationLayout.tables, "\(name): tables")
                    #expect(plan.sourceLayout.tables == alone.sourceLayout.tables, "\(name): source tables")
                    #expect(plan.changes == alone.changes, "\(name): changes")
                    #expect(plan.unchangedTables == alone.unchangedTables, "\(name): unchanged tables")
                    #expect(plan.losses == alone.losses, "\(name): losses")
                    #expect(plan.checks.asksTheSameChecks(as: alone.checks), "\(name): checks")
                    if index > 0 {
                        reused += plan.unchangedTables.intersection(chained[index - 1].unchangedTables).count
                    }
                }
            }
        }
        // Most tables are left as they were by two steps in a row: their carry is the step before's.
        #expect(reused > 10 * Self.seeds.count, "\(reused) carries reused")
    }

    @Test func inferenceReusingTheStepBeforesCopiesInfersEachStepAsAlone() throws {
        var reused = 0
        for seed in Self.seeds {
            for versions in try Self.histories(seed: seed) {
                var memo = InferenceMemo()
                for (source, destination) in zip(versions, versions.dropFirst()) {
                    let previous = memo.copies
                    let chained = MappingInference.infer(
                        from: source, to: destination, modelName: "History", memo: &memo)
                    let alone = MappingInference.infer(from: source, to: destination, modelName: "History")
                    #expect(chained == alone, "seed \(seed), \(source.name) → \(destination.name)")
                    reused += memo.copies.filter { previous[$0.key] != nil }.count
                }
            }
        }
        #expect(reused > 10 * Self.seeds.count, "\(reused) copies reused")
    }

    @Test func aCopyIsRecognisedInOrderAsWithSets() throws {
        var yes = 0
        var no = 0
        var walked = 0
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            for versions in try Self.histories(seed: seed) {
                for (source, destination) in zip(versions, versions.dropFirst()) {
                    let mapping = MappingInference.infer(from: source, to: destination, modelName: "History")
                    let layout = StoreLayout(version: destination)
                    for entityMapping in mapping.entities {
                        guard let name = entityMapping.destination, let entity = destination.entity(named: name)
                        else { continue }
                        for variant in Self.variants(of: entityMapping, random: &random) {
                            let fast = UnchangedTables.copiesEveryProperty(variant, of: entity, in: layout)
                            let full = UnchangedTables.copiesEveryProperty(
                                variant, of: entity, in: layout, inOrder: false)
                            #expect(fast == full, "seed \(seed), \(name): \(variant)")
                            if fast { yes += 1 } else { no += 1 }
                            if UnchangedTables.copiesInOrder(variant, of: entity, in: destination) != nil {
                                walked += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(yes > 10 * Self.seeds.count && no > 10 * Self.seeds.count, "\(yes) copies, \(no) not")
        #expect(walked > 10 * Self.seeds.count, "\(walked) answered in order")
    }

    /// The mapping and copies of it changed so that it copies less, or lists its properties in another order.
    private static func variants(of mapping: EntityMapping, random: inout SplitMix64) -> [EntityMapping] {
        var result = [mapping]
        if !mapping.attributes.isEmpty {
            let index = Int(random.next() % UInt64(mapping.attributes.count))
            var other = mapping
            other.attributes[index].sourceAttribute = "elsewhere"
            result.append(other)
            other = mapping
            other.attributes[index].value = ValueExpression("$source.\(mapping.attributes[index].destination)x")
            result.append(other)
            other = mapping
            other.attributes.append(mapping.attributes[index])
            result.append(other)
            other = mapping
            other.attributes[index] = mapping.attributes[0]
            result.append(other)
            other = mapping
            other.attributes.reverse()
            result.append(other)
        }
        if !mapping.relationships.isEmpty {
            let index = Int(random.next() % UInt64(mapping.relationships.count))
            var other = mapping
            other.relationships[index].source = nil
            result.append(other)
            other = mapping
            other.relationships.reverse()
            result.append(other)
            other = mapping
            other.relationships.removeLast()
            result.append(other)
        }
        return result
    }

    @Test func namesAreClaimedAsWithTheFoldedString() {
        let pieces = ["a", "A", "id", "ID", "Id", "é", "e\u{301}", "\u{212A}", "K", "k", "_", "ß", "Ω", "name_table"]
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            var allocator = NameAllocator(reserved: ["_pk", "_entity"])
            var reference = ReferenceNameAllocator(reserved: ["_pk", "_entity"])
            for _ in 0..<200 {
                var name = ""
                for _ in 0...(random.next() % 3) { name += pieces[Int(random.next() % UInt64(pieces.count))] }
                let qualifier = pieces[Int(random.next() % UInt64(pieces.count))]
                #expect(allocator.claim(name, qualifier: qualifier) == reference.claim(name, qualifier: qualifier))
            }
        }
    }
}

/// ``NameAllocator`` as it was: the folded name made as a string from an array of bytes.
private struct ReferenceNameAllocator {
    private var taken: Set<String> = []

    init(reserved: [String]) {
        for name in reserved { taken.insert(Self.key(name)) }
    }

    mutating func claim(_ name: String, qualifier: String) -> String {
        if taken.insert(Self.key(name)).inserted { return name }
        let base = "\(name)_\(qualifier)"
        if taken.insert(Self.key(base)).inserted { return base }
        var number = 2
        while !taken.insert(Self.key("\(base)_\(number)")).inserted { number += 1 }
        return "\(base)_\(number)"
    }

    private static func key(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

extension StoreLayout {
    /// The layout with its tables built as before session 10: entity values from `hierarchy(of:)` and
    /// `rootEntities`, and every ordered to-many's inverse looked for again for each table.
    static func reference(version: ModelVersion) -> StoreLayout {
        var layout = StoreLayout(version: version)
        layout.tables = []
        layout.joinTables = []
        layout.indexes = []
        layout.tableIndexByEntity = [:]
        layout.storageByProperty = [:]
        layout.columnByProperty = [:]
        layout.orderColumnByToOne = [:]
        layout.reservedNames = NameAllocator()
        layout.referenceBuildTables()
        layout.buildRelationshipStorage()
        layout.buildIndexes()
        return layout
    }

    private mutating func referenceBuildTables() {
        var names = NameAllocator()
        var kindsByEntity: [String: [String]] = [:]
        func kinds(of entity: Entity) -> [String] {
            if let known = kindsByEntity[entity.name] { return known }
            let kinds = version.hierarchy(of: entity).map(\.name)
            kindsByEntity[entity.name] = kinds
            return kinds
        }
        func related(_ first: String, _ second: String) -> Bool {
            guard let a = version.entity(named: first), let b = version.entity(named: second) else { return false }
            return version.entity(a, isKindOf: b.name) || version.entity(b, isKindOf: a.name)
        }
        func setColumn(_ column: String, for property: String, kinds: [String]) {
            for kind in kinds { columnByProperty[PropertyKey(entity: kind, property: property)] = column }
        }
        let orderedToManys = version.entities.flatMap { owner in
            owner.relationships.filter { $0.isToMany && $0.isOrdered && isStored($0) }.map { (owner, $0) }
        }
        for root in version.rootEntities {
            let hierarchy = version.hierarchy(of: root)
            let tableName = names.claim(root.name, qualifier: "table")
            var columns = [
                Column(name: StoreColumn.pk, declaredType: "INTEGER", content: .primaryKey),
                Column(name: StoreColumn.entity, declaredType: "TEXT", content: .entityName),
            ]
            var columnNames = NameAllocator(reserved: [StoreColumn.pk, StoreColumn.entity])
            for entity in hierarchy {
                for attribute in entity.attributes where attribute.isStored {
                    let declaredType = Self.declaredType(of: attribute.type)
                    if let shared = columns.first(where: { column in
                        guard column.name == attribute.name, case .attribute(let other, _, _) = column.content else {
                            return false
                        }
                        return column.declaredType == declaredType && !related(other, entity.name)
                    }) {
                        setColumn(shared.name, for: attribute.name, kinds: kinds(of: entity))
                        continue
                    }
                    let name = columnNames.claim(attribute.name, qualifier: entity.name)
                    let content = Column.Content.attribute(
                        entity: entity.name, name: attribute.name, type: attribute.type)
                    columns.append(Column(name: name, declaredType: declaredType, content: content))
                    setColumn(name, for: attribute.name, kinds: kinds(of: entity))
                }
            }
            for entity in hierarchy {
                for relationship in entity.relationships where !relationship.isToMany && isStored(relationship) {
                    let name = columnNames.claim(relationship.name, qualifier: entity.name)
                    let content = Column.Content.toOne(
                        entity: entity.name, relationship: relationship.name,
                        destination: relationship.destinationEntity ?? "")
                    columns.append(Column(name: name, declaredType: "INTEGER", content: content))
                    setColumn(name, for: relationship.name, kinds: kinds(of: entity))
                }
            }
            let members = Set(hierarchy.map(\.name))
            for (owner, relationship) in orderedToManys {
                guard let inverse = storedInverse(of: relationship, in: owner.name), !inverse.isToMany,
                    let destination = relationship.destinationEntity.flatMap(version.entity(named:))
                else { continue }
                let inverseOwner = version.declaringEntity(of: inverse, in: destination)
                guard members.contains(inverseOwner.name),
                    let inverseColumn = columnByProperty[PropertyKey(entity: inverseOwner.name, property: inverse.name)]
                else { continue }
                let name = columnNames.claim(
                    Self.orderColumnName(toOneColumn: inverseColumn), qualifier: inverseOwner.name)
                let content = Column.Content.order(
                    owner: owner.name, relationship: relationship.name, inverseColumn: inverseColumn)
                columns.append(Column(name: name, declaredType: "INTEGER", content: content))
                orderColumnByToOne[PropertyKey(entity: inverseOwner.name, property: inverse.name)] = name
            }
            for entity in hierarchy { tableIndexByEntity[entity.name] = tables.count }
            tables.append(Table(name: tableName, entities: hierarchy.map(\.name), columns: columns))
        }
        reservedNames = names
    }
}
