import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Two roads to one plan: for every step of random histories, what ``UnchangedTables`` finds the step leaves as
/// it was, and the analyses it lets skip (which tables are carried and how, what phase 3 checks, what is
/// dropped), agree with the analyses run on every table (issue 29).
@Suite struct UnchangedTablesPropertyTests {
    /// Seeds run in the everyday suite; `REMODEL_PROPERTY_SEEDS` raises the count.
    static let seeds: [UInt64] = Array(
        1...UInt64(ProcessInfo.processInfo.environment["REMODEL_PROPERTY_SEEDS"].flatMap { Int($0) } ?? 40))

    @Test func theShortcutPlansEveryStepAsTheFullAnalysisDoes() throws {
        var unchangedSeen = 0
        var changedSeen = 0
        for seed in Self.seeds {
            var history = RandomHistory(seed: seed)
            var previous = try history.version(number: 1)
            for number in 2...history.versionCount {
                history.mutate()
                let next = try history.version(number: number)
                let (unchanged, tables) = try compare(previous, next, seed: seed)
                unchangedSeen += unchanged
                changedSeen += tables - unchanged
                previous = next
            }
        }
        // The histories exercise both roads: tables left as they were, and tables analysed.
        #expect(unchangedSeen > 8 * Self.seeds.count, "\(unchangedSeen) unchanged tables")
        #expect(changedSeen > 4 * Self.seeds.count, "\(changedSeen) analysed tables")
    }

    /// Plans `source → destination` both ways and expects the same; returns the unchanged tables and all tables.
    private func compare(_ source: ModelVersion, _ destination: ModelVersion, seed: UInt64) throws -> (Int, Int) {
        let mapping = MappingInference.infer(from: source, to: destination, modelName: "History")
        let step = MigrationStep(source: source, destination: destination, mapping: mapping)
        let (from, to) = (StoreLayout(version: source), StoreLayout(version: destination))
        let keys = KeyPlan(mapping: mapping, source: from, destination: to)
        let unchanged = UnchangedTables(mapping: mapping, source: from, destination: to, keys: keys, policies: [])
        let shortcut = StorageChanges(
            analysis: StepStorageAnalysis(
                step: step, source: from, destination: to, keys: keys, policies: [], unchanged: unchanged.tables),
            unchanged: unchanged)
        let analysed = StorageChanges(
            analysis: StepStorageAnalysis(step: step, source: from, destination: to, keys: keys, policies: []))
        let name = "seed \(seed), \(source.name) → \(destination.name)"
        let tablesThatDiffer = Set(shortcut.carriedTables.keys).union(analysed.carriedTables.keys).filter {
            shortcut.carriedTables[$0] != analysed.carriedTables[$0]
        }
        let differences = tablesThatDiffer.sorted().map { table in
            "\(table): \(String(describing: shortcut.carriedTables[table])) against \(String(describing: analysed.carriedTables[table]))"
        }
        #expect(differences.isEmpty, "\(name): carried tables \(differences)")
        #expect(shortcut.carriedJoins == analysed.carriedJoins, "\(name): join tables")
        #expect(shortcut.feeders == analysed.feeders, "\(name): feeders")
        #expect(
            DataLoss.planned(by: step, layout: from, policies: [], copied: unchanged.entities)
                == DataLoss.planned(by: step, layout: from, policies: []), "\(name): losses")
        let scoped = CheckScope(
            version: destination, layout: to, source: source, sourceLayout: from, changes: shortcut,
            unchanged: unchanged)
        let checked = CheckScope(
            version: destination, layout: to, source: source, sourceLayout: from, changes: analysed)
        let sameChecks = scoped.asksTheSameChecks(as: checked)
        #expect(
            sameChecks,
            "\(name): checks; untouched \(scoped.untouched.sorted()) against \(checked.untouched.sorted())")
        return (unchanged.tables.count, to.tables.count)
    }
}

/// A random model history: entities with attributes (types, optional or required with defaults, bounds,
/// renaming identifiers), hierarchies, relationships (to-one, to-many, ordered, many-to-many) and uniqueness
/// constraints, changed a little at each version, as apps change their models: an attribute added, dropped,
/// renamed (sometimes only in case), made required or optional, bounded, widened or made transient; an entity
/// added, removed or renamed; a relationship added, removed or ordered; a constraint added or dropped.
struct RandomHistory {
    struct Attribute {
        var name: String
        var type: String
        var optional = true
        var defaultValue: String?
        var maximum: String?
        var elementID: String?
        var transient = false
    }

    struct Relationship {
        var name: String
        var destination: String
        var inverse: String
        var toMany = false
        var ordered = false
    }

    struct Entity {
        var name: String
        var parent: String?
        var isAbstract = false
        var elementID: String?
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        var unique: [String] = []
    }

    private var random: SplitMix64
    private var entities: [Entity] = []
    private var counter = 0
    let versionCount: Int

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        versionCount = 6 + Int(random.next() % 10)
        for _ in 0..<(3 + Int(random.next() % 5)) { addEntity() }
        for _ in 0..<(2 + Int(random.next() % 4)) { addRelationship() }
    }

    private mutating func pick(_ count: Int) -> Int { Int(random.next() % UInt64(max(count, 1))) }
    private mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    private mutating func freshName(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }

    private static let types = [
        "String", "Integer 16", "Integer 32", "Integer 64", "Double", "Boolean", "Date", "Binary",
    ]

    private mutating func newAttribute() -> Attribute {
        let type = Self.types[pick(Self.types.count)]
        var attribute = Attribute(name: freshName("value"), type: type)
        if chance(25) {
            attribute.optional = false
            attribute.defaultValue = type == "String" ? "none" : type == "Boolean" ? "NO" : "0"
        }
        if chance(15), type.hasPrefix("Integer") { attribute.maximum = "\(100 + pick(900))" }
        return attribute
    }

    private mutating func addEntity() {
        var entity = Entity(name: freshName("Entity"))
        if !entities.isEmpty, chance(25) {
            let parent = pick(entities.count)
            entity.parent = entities[parent].name
            if chance(30) { entities[parent].isAbstract = true }
        }
        for _ in 0..<(1 + pick(4)) { entity.attributes.append(newAttribute()) }
        if chance(20), let first = entity.attributes.first, !first.transient { entity.unique = [first.name] }
        entities.append(entity)
    }

    private mutating func addRelationship() {
        guard entities.count >= 2 else { return }
        let owner = pick(entities.count)
        let target = pick(entities.count)
        let name = freshName("link")
        let inverse = freshName("back")
        let kind = pick(4)
        let toMany = kind >= 1
        let inverseToMany = kind == 3
        let ordered = toMany && chance(30)
        entities[owner].relationships.append(
            Relationship(
                name: name, destination: entities[target].name, inverse: inverse, toMany: toMany, ordered: ordered))
        entities[target].relationships.append(
            Relationship(
                name: inverse, destination: entities[owner].name, inverse: name, toMany: inverseToMany,
                ordered: inverseToMany && chance(20)))
    }

    /// Changes one to three things, or nothing (a version that changes another part of the app).
    mutating func mutate() {
        guard !chance(10) else { return }
        for _ in 0..<(1 + pick(3)) { mutateOnce() }
    }

    private mutating func mutateOnce() {
        let entity = pick(entities.count)
        switch pick(14) {
        case 0, 1: entities[entity].attributes.append(newAttribute())
        case 2:
            if entities[entity].attributes.count > 1 {
                let dropped = entities[entity].attributes.remove(at: pick(entities[entity].attributes.count))
                entities[entity].unique.removeAll { $0 == dropped.name }
            }
        case 3:
            guard !entities[entity].attributes.isEmpty else { return }
            let index = pick(entities[entity].attributes.count)
            let old = entities[entity].attributes[index].name
            let new = chance(40) ? old.prefix(1).uppercased() + old.dropFirst() : freshName("renamed")
            entities[entity].attributes[index].elementID = old
            entities[entity].attributes[index].name = new
            entities[entity].unique = entities[entity].unique.map { $0 == old ? new : $0 }
        case 4:
            guard !entities[entity].attributes.isEmpty else { return }
            let index = pick(entities[entity].attributes.count)
            let attribute = entities[entity].attributes[index]
            entities[entity].attributes[index].optional.toggle()
            if attribute.optional, attribute.defaultValue == nil, chance(70) {
                entities[entity].attributes[index].defaultValue =
                    attribute.type == "String" ? "none" : attribute.type == "Boolean" ? "NO" : "0"
            }
        case 5:
            guard let index = entities[entity].attributes.firstIndex(where: { $0.type.hasPrefix("Integer") }) else {
                return
            }
            entities[entity].attributes[index].maximum = chance(30) ? nil : "\(10 + pick(500))"
        case 6:
            guard let index = entities[entity].attributes.firstIndex(where: { $0.type == "Integer 16" }) else { return }
            entities[entity].attributes[index].type = "Integer 32"
        case 7:
            guard !entities[entity].attributes.isEmpty else { return }
            let index = pick(entities[entity].attributes.count)
            if !entities[entity].unique.contains(entities[entity].attributes[index].name) {
                entities[entity].attributes[index].transient.toggle()
            }
        case 8: addEntity()
        case 9:
            guard entities.count > 3 else { return }
            let removed = entities.remove(at: entity).name
            for index in entities.indices {
                entities[index].relationships.removeAll { $0.destination == removed }
                if entities[index].parent == removed { entities[index].parent = nil }
            }
            let names = Set(entities.flatMap { $0.relationships.map(\.name) })
            for index in entities.indices { entities[index].relationships.removeAll { !names.contains($0.inverse) } }
        case 10:
            let old = entities[entity].name
            let new = chance(30) ? old.uppercased() : freshName("Renamed")
            entities[entity].name = new
            entities[entity].elementID = old
            for index in entities.indices {
                if entities[index].parent == old { entities[index].parent = new }
                for link in entities[index].relationships.indices
                where entities[index].relationships[link].destination == old {
                    entities[index].relationships[link].destination = new
                }
            }
        case 11: addRelationship()
        case 12:
            guard let index = entities[entity].relationships.firstIndex(where: \.toMany) else { return }
            entities[entity].relationships[index].ordered.toggle()
        default:
            guard let attribute = entities[entity].attributes.first(where: { !$0.transient }) else { return }
            entities[entity].unique = entities[entity].unique.isEmpty ? [attribute.name] : []
        }
    }

    /// The history's current model as a version (read from its XML, as Xcode writes it: entities sorted by name).
    func version(number: Int) throws -> ModelVersion {
        var text = ""
        for entity in entities.sorted(by: { $0.name < $1.name }) {
            text += "<entity name=\"\(entity.name)\" representedClassName=\"\(entity.name)\""
            if let parent = entity.parent { text += " parentEntity=\"\(parent)\"" }
            if entity.isAbstract { text += " isAbstract=\"YES\"" }
            if let elementID = entity.elementID { text += " elementID=\"\(elementID)\"" }
            text += ">\n"
            for attribute in entity.attributes {
                text += "  <attribute name=\"\(attribute.name)\" attributeType=\"\(attribute.type)\""
                if attribute.optional { text += " optional=\"YES\"" }
                if attribute.transient { text += " transient=\"YES\"" }
                if let value = attribute.defaultValue { text += " defaultValueString=\"\(value)\"" }
                if let maximum = attribute.maximum { text += " maxValueString=\"\(maximum)\"" }
                if let elementID = attribute.elementID { text += " elementID=\"\(elementID)\"" }
                text += "/>\n"
            }
            for link in entity.relationships {
                text += "  <relationship name=\"\(link.name)\" optional=\"YES\""
                text += link.toMany ? " toMany=\"YES\"" : " maxCount=\"1\""
                if link.ordered { text += " ordered=\"YES\"" }
                text += " destinationEntity=\"\(link.destination)\" inverseName=\"\(link.inverse)\""
                text += " inverseEntity=\"\(link.destination)\"/>\n"
            }
            if !entity.unique.isEmpty {
                text += "  <uniquenessConstraints><uniquenessConstraint>"
                text += entity.unique.map { "<constraint value=\"\($0)\"/>" }.joined()
                text += "</uniquenessConstraint></uniquenessConstraints>\n"
            }
            text += "</entity>\n"
        }
        return try makeVersion(number == 1 ? "History" : "History \(number)", text)
    }
}
