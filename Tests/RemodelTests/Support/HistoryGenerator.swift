import Foundation

@testable import Remodel

/// Random model histories for the property "composed equals step by step": from a seed, 15–40 versions
/// of a small model, each made from the one before by one or two changes a user makes in Xcode — adds and
/// removes, renames (back again, and of letter case only), optional ↔ required with defaults, widening,
/// entities moved under parents and merged (with a mapping file), relationships of every kind, ordered or
/// not. Names are drawn from pools that differ by letter case (`menuId`, `menuID`; `Note`, `NOTE`), as
/// SQLite compares names without it.
///
/// Every version is read, validated and its step inferred (or merged with its mapping file) as it is made:
/// a change that gives a version with errors or a step with problems is drawn again.
struct HistoryGenerator {
    /// A generated history: the versions' `contents` elements, in order, and the mapping files of its steps.
    struct History {
        var name: String
        var versions: [(name: String, model: HistoryModel)]
        /// `(file name, XML)` of the mapping files (merges).
        var mappings: [(String, String)]
        /// What each step did, for a failure's message.
        var changes: [String]
        /// The entity and attribute of the first version that every version keeps (renamed, moved, widened,
        /// never removed), for the app's objects to stand on: most app objects then reach the last version.
        var kept: (entity: Int, attribute: Int?)?
        /// The versions as read when they were made (with `contents` as their path).
        var parsed: [ModelVersion]
    }

    static let entityNames = ["Note", "NOTE", "Pet", "PET", "Cat", "Dog", "Item", "ITEM", "Visit", "Memo"]
    static let attributeNames = [
        "title", "heading", "menuId", "menuID", "imageUrl", "imageURL", "name", "count", "note", "userId", "userID",
        "price", "flag", "when", "label",
    ]
    static let relationshipNames = ["owner", "items", "tags", "parent", "children", "pets", "visits", "menu", "mENU"]
    static let types: [AttributeType] = [.integer16, .integer32, .integer64, .double, .string, .boolean, .date]

    var random: SplitMix64
    private var nextID = 1
    private var model = HistoryModel()
    private var modelName: String
    private var versions: [(name: String, model: HistoryModel)] = []
    private var parsed: [ModelVersion] = []
    private var mappings: [(String, String)] = []
    private var changes: [String] = []
    private var kept: (entity: Int, attribute: Int?)?

    /// Draws the conversions appended to a history (``appendConversions()``), apart from ``random`` so that the
    /// versions before them are those the seed drew before there were any.
    private var conversions: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        conversions = SplitMix64(seed: seed ^ 0x1ED6_E500)
        modelName = "History"
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
    private mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// A history of `count` versions (drawn from 15…40 when nil).
    mutating func history(versions count: Int? = nil) throws -> History {
        let total = count ?? Int.random(in: 15...40, using: &random)
        var first = HistoryModel()
        for _ in 0..<Int.random(in: 2...3, using: &random) { addEntity(&first) }
        for _ in 0..<2 { addLink(&first) }
        guard try accept(first, change: "first version") else {
            throw RemodelError(.invalidModel, "the generator's first version does not validate:\n\(first.xml)")
        }
        if chance(85) {
            let entity = pick(first.entities)
            kept = (entity.id, entity.attributes.isEmpty ? nil : pick(entity.attributes).id)
        }
        while versions.count < total {
            try step()
        }
        try appendConversions()
        return History(
            name: modelName, versions: versions, mappings: mappings, changes: changes, kept: kept, parsed: parsed)
    }

    /// The version names: `History`, `History 2`, ….
    private func versionName(_ index: Int) -> String { index == 0 ? modelName : "\(modelName) \(index + 1)" }

    /// Keeps a version when it reads, validates without errors and its step from the last version has no
    /// problem; returns whether it did.
    @discardableResult
    private mutating func accept(_ next: HistoryModel, change: String, mapping: String? = nil) throws -> Bool {
        try rejection(of: next, change: change, mapping: mapping) == nil
    }

    /// Why a version is not kept, or nil when it is kept (see ``accept(_:change:mapping:)``).
    private mutating func rejection(of next: HistoryModel, change: String, mapping: String? = nil) throws -> String? {
        let name = versionName(versions.count)
        let version: ModelVersion
        do {
            version = try makeVersion(name, next.xml)
        } catch {
            return "\(error)"
        }
        var diagnostics = DiagnosticList()
        ModelValidator.validate(version, into: &diagnostics)
        if let error = diagnostics.items.first(where: { $0.severity == .error }) { return "\(error)" }
        if let previous = parsed.last {
            let mappingModel: MappingModel
            if let mapping {
                let root = try XMLDocumentReader.parse(Array(mapping.utf8), file: "mapping.xml")
                guard case (let file?, let read) = MappingFileReader.mappingFile(from: root, path: "mapping.xml"),
                    !read.contains(where: { $0.severity == .error })
                else { return "the mapping file does not read" }
                let (merged, resolved) = MappingResolver.resolve(
                    file: file, bundle: makeBundle(modelName, previous, version))
                guard let merged, !resolved.contains(where: { $0.severity == .error }) else {
                    return "the mapping file does not resolve: \(resolved)"
                }
                mappingModel = merged
            } else {
                mappingModel = MappingInference.infer(from: previous, to: version, modelName: modelName)
            }
            if let problem = mappingModel.problems.first { return "\(problem)" }
            if let mapping { mappings.append(("step \(versions.count).xml", mapping)) }
        }
        versions.append((name, next))
        parsed.append(version)
        changes.append("\(name): \(change)")
        model = next
        return nil
    }

    /// Draws changes until one gives a version that is kept.
    private mutating func step() throws {
        for _ in 0..<40 {
            var next = model
            var described: [String] = []
            var mapping: String?
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                guard let change = mutate(&next, mapping: &mapping) else { continue }
                described.append(change)
                if mapping != nil { break }
            }
            guard !described.isEmpty else { continue }
            if try accept(next, change: described.joined(separator: "; "), mapping: mapping) { return }
        }
        // Nothing drawn fits: an optional attribute of a name of its own always does.
        var next = model
        guard let index = next.entities.indices.first else { return }
        let attribute = HistoryModel.Attribute(
            id: makeID(), name: "spare\(nextID)", type: .string, isOptional: true, defaultValue: nil)
        next.entities[index].attributes.append(attribute)
        if let reason = try rejection(of: next, change: "added \(next.entities[index].name).\(attribute.name)") {
            throw RemodelError(
                .invalidModel,
                "the generator made no valid version after \(versionName(versions.count - 1)) (\(reason)):\n\(model.xml)"
            )
        }
    }

    // MARK: - Conversions that fail on part of the data

    /// Up to two versions more, each changing one attribute with a mapping file whose expression gives nil for some
    /// objects and not others (as `GeneratedStoreData` fills them: `v1`, `v2`, … for text, the key for numbers):
    /// text to Integer 64 through `int(…)`, a number divided by itself less 2 (or 0.5). The ledger of values
    /// turned into nil must be the same composed and step by step.
    private mutating func appendConversions() throws {
        for _ in 0..<Int.random(in: 1...2, using: &conversions) {
            let candidates = model.entities.flatMap { entity in
                entity.attributes.filter { [.string, .integer16, .integer32, .integer64, .double].contains($0.type) }
                    .map { (entity, $0) }
            }
            guard !candidates.isEmpty else { return }
            let (entity, attribute) = candidates[Int.random(in: 0..<candidates.count, using: &conversions)]
            guard let index = model.index(ofEntity: entity.id),
                let position = model.entities[index].attributes.firstIndex(where: { $0.id == attribute.id })
            else { return }
            var next = model
            var changed = attribute
            let value: String
            switch attribute.type {
            case .string:
                changed.type = .integer64
                if changed.defaultValue != nil { changed.defaultValue = "7" }
                value = "int(replace(replace($source.\(attribute.name), 'v2', 'x'), 'v', ''))"
            case .double:
                value = "$source.\(attribute.name) / ($source.\(attribute.name) - 0.5)"
            default:
                value = "$source.\(attribute.name) / ($source.\(attribute.name) - 2)"
            }
            next.entities[index].attributes[position] = changed
            let mapping = """
                <mapping model="\(modelName)" sourceVersion="\(versionName(versions.count - 1))" destinationVersion="\(versionName(versions.count))">
                  <entity source="\(entity.name)" destination="\(entity.name)">
                    <attribute name="\(attribute.name)" value="\(value.replacingOccurrences(of: "'", with: "&apos;"))"/>
                  </entity>
                </mapping>
                """
            try accept(next, change: "converted \(entity.name).\(attribute.name): \(value)", mapping: mapping)
        }
    }

    // MARK: - Changes

    /// Applies one random change; returns what it did, or nil when it could not apply.
    private mutating func mutate(_ next: inout HistoryModel, mapping: inout String?) -> String? {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<14: return addAttribute(&next)
        case 14..<22: return removeAttribute(&next)
        case 22..<34: return renameAttribute(&next)
        case 34..<40: return toggleOptional(&next)
        case 40..<45: return widen(&next)
        case 45..<50: return addEntity(&next)
        case 50..<53: return removeEntity(&next)
        case 53..<59: return renameEntity(&next)
        case 59..<64: return moveUnderParent(&next)
        case 64..<68: return merge(&next, mapping: &mapping)
        case 68..<78: return addLink(&next)
        case 78..<83: return removeLink(&next)
        case 83..<92: return renameLink(&next)
        default: return toggleOrdered(&next)
        }
    }

    private mutating func defaultValue(for type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64: return pick(["0", "7"])
        case .double: return "1.5"
        case .string: return pick(["none", "x"])
        case .boolean: return "NO"
        case .date: return "0"
        default: return "0"
        }
    }

    private mutating func newAttribute(avoiding names: Set<String>) -> HistoryModel.Attribute? {
        let free = Self.attributeNames.filter { !names.contains($0) }
        guard !free.isEmpty else { return nil }
        let type = pick(Self.types)
        let optional = chance(60)
        return HistoryModel.Attribute(
            id: makeID(), name: pick(free), type: type, isOptional: optional,
            defaultValue: optional && chance(70) ? nil : defaultValue(for: type))
    }

    /// Entities that are not abstract-only parents: every entity may hold attributes.
    private mutating func pickEntity(_ model: HistoryModel) -> Int? {
        model.entities.isEmpty ? nil : pick(model.entities).id
    }

    @discardableResult
    private mutating func addEntity(_ next: inout HistoryModel) -> String? {
        let taken = Set(next.entities.map(\.name))
        let free = Self.entityNames.filter { !taken.contains($0) }
        guard !free.isEmpty else { return nil }
        var entity = HistoryModel.Entity(id: makeID(), name: pick(free))
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            if let attribute = newAttribute(avoiding: Set(entity.attributes.map(\.name))) {
                entity.attributes.append(attribute)
            }
        }
        next.entities.append(entity)
        return "added entity \(entity.name)"
    }

    private mutating func addAttribute(_ next: inout HistoryModel) -> String? {
        guard let id = pickEntity(next), let index = next.index(ofEntity: id),
            var attribute = newAttribute(avoiding: next.namesInUse(around: id))
        else { return nil }
        // A required attribute added to an entity that has objects needs its default; newAttribute gives one.
        if !attribute.isOptional && attribute.defaultValue == nil {
            attribute.defaultValue = defaultValue(for: attribute.type)
        }
        next.entities[index].attributes.append(attribute)
        return
            "added \(next.entities[index].name).\(attribute.name) (\(attribute.type.rawValue)\(attribute.isOptional ? ", optional" : ""))"
    }

    private mutating func removeAttribute(_ next: inout HistoryModel) -> String? {
        let holders = next.entities.filter { !$0.attributes.isEmpty }
        guard !holders.isEmpty, let index = next.index(ofEntity: pick(holders).id) else { return nil }
        let position = Int.random(in: 0..<next.entities[index].attributes.count, using: &random)
        guard next.entities[index].attributes[position].id != kept?.attribute else { return nil }
        let removed = next.entities[index].attributes.remove(at: position)
        return "removed \(next.entities[index].name).\(removed.name)"
    }

    /// A name that differs from `name` in letter case only.
    private mutating func caseVariant(of name: String) -> String {
        let characters = Array(name)
        guard characters.count > 1 else { return name.uppercased() }
        if name == name.uppercased() { return name.prefix(1) + name.dropFirst().lowercased() }
        if chance(50) { return name.prefix(1) + name.dropFirst().uppercased() }
        let position = Int.random(in: 1..<characters.count, using: &random)
        var changed = characters
        let letter = String(changed[position])
        changed[position] = Character(letter == letter.uppercased() ? letter.lowercased() : letter.uppercased())
        return String(changed)
    }

    private mutating func renameAttribute(_ next: inout HistoryModel) -> String? {
        let holders = next.entities.filter { !$0.attributes.isEmpty }
        guard !holders.isEmpty, let index = next.index(ofEntity: pick(holders).id) else { return nil }
        let position = Int.random(in: 0..<next.entities[index].attributes.count, using: &random)
        var attribute = next.entities[index].attributes[position]
        let inUse = next.namesInUse(around: next.entities[index].id)
        var name: String
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 30 {
            name = caseVariant(of: attribute.name)
        } else if roll < 55, let back = attribute.pastNames.last(where: { !inUse.contains($0) }) {
            name = back
        } else {
            name = pick(Self.attributeNames)
        }
        guard name != attribute.name, !inUse.contains(name) else { return nil }
        attribute.pastNames.append(attribute.name)
        let old = attribute.name
        attribute.name = name
        next.entities[index].attributes[position] = attribute
        return "renamed \(next.entities[index].name).\(old) to \(name)"
    }

    private mutating func toggleOptional(_ next: inout HistoryModel) -> String? {
        let holders = next.entities.filter { !$0.attributes.isEmpty }
        guard !holders.isEmpty, let index = next.index(ofEntity: pick(holders).id) else { return nil }
        let position = Int.random(in: 0..<next.entities[index].attributes.count, using: &random)
        var attribute = next.entities[index].attributes[position]
        if attribute.isOptional {
            attribute.isOptional = false
            if attribute.defaultValue == nil { attribute.defaultValue = defaultValue(for: attribute.type) }
        } else {
            attribute.isOptional = true
            if chance(50) { attribute.defaultValue = nil }
        }
        next.entities[index].attributes[position] = attribute
        return "made \(next.entities[index].name).\(attribute.name) \(attribute.isOptional ? "optional" : "required")"
    }

    private mutating func widen(_ next: inout HistoryModel) -> String? {
        let wider: [AttributeType: [AttributeType]] = [
            .integer16: [.integer32, .integer64, .double], .integer32: [.integer64, .double, .string],
            .integer64: [.string], .boolean: [.string], .double: [.string],
        ]
        let holders = next.entities.filter { $0.attributes.contains { wider[$0.type] != nil } }
        guard !holders.isEmpty, let index = next.index(ofEntity: pick(holders).id) else { return nil }
        let positions = next.entities[index].attributes.indices.filter {
            wider[next.entities[index].attributes[$0].type] != nil
        }
        let position = pick(positions)
        var attribute = next.entities[index].attributes[position]
        let from = attribute.type
        attribute.type = pick(wider[from] ?? [from])
        if attribute.defaultValue != nil { attribute.defaultValue = defaultValue(for: attribute.type) }
        next.entities[index].attributes[position] = attribute
        return
            "widened \(next.entities[index].name).\(attribute.name) from \(from.rawValue) to \(attribute.type.rawValue)"
    }

    private mutating func removeEntity(_ next: inout HistoryModel) -> String? {
        guard next.entities.count > 2 else { return nil }
        let leaves = next.entities.filter { entity in
            entity.id != kept?.entity && !next.entities.contains { $0.parent == entity.id }
        }
        guard !leaves.isEmpty else { return nil }
        let removed = pick(leaves)
        next.entities.removeAll { $0.id == removed.id }
        next.links.removeAll { $0.owner == removed.id || $0.target == removed.id }
        return "removed entity \(removed.name)"
    }

    private mutating func renameEntity(_ next: inout HistoryModel) -> String? {
        guard let id = pickEntity(next), let index = next.index(ofEntity: id) else { return nil }
        var entity = next.entities[index]
        let taken = Set(next.entities.map(\.name))
        let roll = Int.random(in: 0..<100, using: &random)
        let name: String
        if roll < 35 {
            name =
                entity.name == entity.name.uppercased()
                ? entity.name.prefix(1) + entity.name.dropFirst().lowercased() : entity.name.uppercased()
        } else if roll < 55, let back = entity.pastNames.last(where: { !taken.contains($0) }) {
            name = back
        } else {
            name = pick(Self.entityNames)
        }
        guard !taken.contains(name) else { return nil }
        entity.pastNames.append(entity.name)
        let old = entity.name
        entity.name = name
        next.entities[index] = entity
        return "renamed entity \(old) to \(name)"
    }

    /// Moves a root entity without sub-entities under another entity (its objects join that hierarchy's
    /// table, with new keys), or under a new abstract parent.
    private mutating func moveUnderParent(_ next: inout HistoryModel) -> String? {
        let movable = next.entities.filter { entity in
            entity.parent == nil && !entity.isAbstract && !next.entities.contains { $0.parent == entity.id }
        }
        guard !movable.isEmpty else { return nil }
        let moved = pick(movable)
        let ownNames = Set(next.declaredNames(moved.id))
        let parents = next.entities.filter { candidate in
            candidate.id != moved.id
                && next.lineage(candidate.id).allSatisfy { ownNames.isDisjoint(with: next.declaredNames($0.id)) }
        }
        guard let index = next.index(ofEntity: moved.id) else { return nil }
        if parents.isEmpty || chance(35) {
            let taken = Set(next.entities.map(\.name))
            let free = Self.entityNames.filter { !taken.contains($0) }
            guard !free.isEmpty else { return nil }
            let parent = HistoryModel.Entity(id: makeID(), name: pick(free), isAbstract: true)
            next.entities.append(parent)
            next.entities[index].parent = parent.id
            return "moved \(moved.name) under the new abstract \(parent.name)"
        }
        let parent = pick(parents)
        // Objects moved under a parent get its attributes: required ones need a default.
        guard
            next.lineage(parent.id).allSatisfy({ $0.attributes.allSatisfy { $0.isOptional || $0.defaultValue != nil } })
        else { return nil }
        next.entities[index].parent = parent.id
        return "moved \(moved.name) under \(parent.name)"
    }

    /// Two root entities without sub-entities or relationships merged into one: the second's objects are
    /// mapped into the first by a mapping file, and the second is removed.
    private mutating func merge(_ next: inout HistoryModel, mapping: inout String?) -> String? {
        let candidates = next.entities.filter { entity in
            entity.parent == nil && !entity.isAbstract && !next.entities.contains { $0.parent == entity.id }
        }
        guard candidates.count >= 2 else { return nil }
        let into = pick(candidates)
        let from = pick(candidates.filter { $0.id != into.id })
        guard from.id != kept?.entity else { return nil }
        guard !next.links.contains(where: { $0.owner == from.id || $0.target == from.id }),
            into.attributes.allSatisfy({ $0.isOptional || $0.defaultValue != nil })
        else { return nil }
        next.entities.removeAll { $0.id == from.id }
        mapping = """
            <mapping model="\(modelName)" sourceVersion="\(versionName(versions.count - 1))" destinationVersion="\(versionName(versions.count))">
              <entity source="\(from.name)" destination="\(into.name)"/>
            </mapping>
            """
        return "merged \(from.name) into \(into.name)"
    }

    @discardableResult
    private mutating func addLink(_ next: inout HistoryModel) -> String? {
        guard let owner = pickEntity(next), let target = pickEntity(next) else { return nil }
        let ownerNames = next.namesInUse(around: owner)
        let free = Self.relationshipNames.filter { !ownerNames.contains($0) }
        guard !free.isEmpty else { return nil }
        let name = pick(free)
        var link = HistoryModel.Link(
            id: makeID(), owner: owner, name: name, target: target, isToMany: chance(45), isOrdered: false)
        link.isOrdered = link.isToMany && chance(40)
        if chance(75) {
            let targetNames = next.namesInUse(around: target).union(owner == target ? [name] : [])
            let inverseFree = Self.relationshipNames.filter { !targetNames.contains($0) && $0 != name }
            guard !inverseFree.isEmpty else { return nil }
            let toMany = !link.isToMany || chance(40)
            link.inverse = HistoryModel.Inverse(
                name: pick(inverseFree), isToMany: toMany, isOrdered: toMany && chance(40))
        }
        next.links.append(link)
        let kind =
            "\(link.isToMany ? (link.isOrdered ? "ordered to-many" : "to-many") : "to-one")"
            + (link.inverse.map {
                ", inverse \($0.name) \($0.isToMany ? ($0.isOrdered ? "ordered to-many" : "to-many") : "to-one")"
            } ?? "")
        return
            "added relationship \(next.entity(owner)?.name ?? "").\(name) → \(next.entity(target)?.name ?? "") (\(kind))"
    }

    private mutating func removeLink(_ next: inout HistoryModel) -> String? {
        guard !next.links.isEmpty else { return nil }
        let removed = next.links.remove(at: Int.random(in: 0..<next.links.count, using: &random))
        return "removed relationship \(next.entity(removed.owner)?.name ?? "").\(removed.name)"
    }

    private mutating func renameLink(_ next: inout HistoryModel) -> String? {
        guard !next.links.isEmpty else { return nil }
        let position = Int.random(in: 0..<next.links.count, using: &random)
        var link = next.links[position]
        let inUse = next.namesInUse(around: link.owner)
        let name = chance(30) ? caseVariant(of: link.name) : pick(Self.relationshipNames)
        guard name != link.name, !inUse.contains(name), link.inverse?.name != name else { return nil }
        let old = link.name
        link.name = name
        next.links[position] = link
        return "renamed relationship \(next.entity(link.owner)?.name ?? "").\(old) to \(name)"
    }

    private mutating func toggleOrdered(_ next: inout HistoryModel) -> String? {
        let toMany = next.links.indices.filter { next.links[$0].isToMany || next.links[$0].inverse?.isToMany == true }
        guard !toMany.isEmpty else { return nil }
        let position = pick(toMany)
        var link = next.links[position]
        if link.isToMany && (link.inverse?.isToMany != true || chance(50)) {
            link.isOrdered.toggle()
        } else {
            link.inverse?.isOrdered.toggle()
        }
        next.links[position] = link
        return "changed the order of a relationship of \(next.entity(link.owner)?.name ?? "") (\(link.name))"
    }
}
