/// Stored data a step drops on purpose, as its mapping says: a property of a source entity nothing in the
/// destination is computed from, or an entity with no destination at all. The plan lists every one, and
/// a migration reports how many values each lost, so that nothing goes without being said.
///
/// For example:
/// ```swift
/// for loss in try migrator.plan(storeAt: path).losses { print(loss) }
/// // Library → Library 2 drops Person.email (3 values)
/// ```
public struct DataLoss: Sendable, Hashable, CustomStringConvertible {
    /// The step: its source and destination version names.
    public var sourceVersion: String
    public var destinationVersion: String
    /// The source entity.
    public var entity: String
    /// The property dropped, or nil when the entity's objects are dropped.
    public var property: String?
    /// How many stored values (non-nil attribute values, links, or objects) are lost, when they were counted.
    public var count: Int?

    /// What is dropped and how much, without the step: `Person.email (3 values)`.
    public var detail: String {
        let what = property.map { "\(entity).\($0)" } ?? "\(entity) objects"
        let how: String
        switch (property, count) {
        case (_, nil): how = "counted when the step runs"
        case (nil, let count?): how = count == 1 ? "1 object" : "\(count) objects"
        case (_, let count?): how = count == 1 ? "1 value" : "\(count) values"
        }
        return "\(what) (\(how))"
    }

    public var description: String { "\(sourceVersion) → \(destinationVersion) drops \(detail)" }
}

extension DataLoss {
    /// What a step drops, from its mapping: entities with no destination; properties of carried entities that
    /// no attribute value, relationship, filter or policy reads (and whose inverse is not carried either).
    static func planned(by step: MigrationStep, policies: Set<String>) -> [DataLoss] {
        planned(by: step, layout: StoreLayout(version: step.source), policies: policies)
    }

    /// What a step drops, with its source version's layout known already. `copied` names entities the step copies
    /// as they are, every property from itself (``UnchangedTables``): they drop nothing and are not looked at.
    static func planned(by step: MigrationStep, layout: StoreLayout, policies: Set<String>, copied: Set<String> = [])
        -> [DataLoss]
    {
        var losses: [DataLoss] = []
        for entity in step.source.entities where !entity.isAbstract && !copied.contains(entity.name) {
            let mappings = step.mapping.entities.filter { $0.source == entity.name }
            let carriedTo = mappings.compactMap(\.destination)
            func loss(_ property: String?) -> DataLoss {
                DataLoss(
                    sourceVersion: step.source.name, destinationVersion: step.destination.name, entity: entity.name,
                    property: property)
            }
            guard !carriedTo.isEmpty else {
                losses.append(loss(nil))
                continue
            }
            if carriedTo.contains(where: policies.contains) { continue }
            var read: Set<String> = []
            for mapping in mappings {
                for attribute in mapping.attributes {
                    if let value = attribute.value { read.formUnion(firstNames(in: value.text)) }
                }
                if let filter = mapping.filter { read.formUnion(firstNames(in: filter.text)) }
                for relationship in mapping.relationships {
                    if let source = relationship.source { read.insert(source) }
                }
            }
            for attribute in layout.storedAttributes(of: entity) where !read.contains(attribute.name) {
                losses.append(loss(attribute.name))
            }
            for relationship in layout.storedRelationships(of: entity) where !read.contains(relationship.name) {
                // A link is kept when the other side carries it.
                if let inverse = layout.storedInverse(of: relationship, in: entity.name),
                    let target = relationship.destinationEntity,
                    step.mapping.entities.contains(where: { mapping in
                        guard let source = mapping.source, let sourceEntity = step.source.entity(named: source) else {
                            return false
                        }
                        return step.source.entity(sourceEntity, isKindOf: target)
                            && mapping.relationships.contains { $0.source == inverse.name }
                    })
                {
                    continue
                }
                // Of two sides that are both dropped, the link is counted once: on the side that sorts first.
                if let inverse = layout.storedInverse(of: relationship, in: entity.name),
                    let target = relationship.destinationEntity,
                    Array("\(target).\(inverse.name)".utf8).lexicographicallyPrecedes(
                        Array("\(entity.name).\(relationship.name)".utf8)),
                    step.source.entity(named: target).map({ !$0.isAbstract }) == true
                {
                    continue
                }
                losses.append(loss(relationship.name))
            }
        }
        return losses + droppedMembers(by: step, copied: copied)
    }

    /// The first name after each `$source.` in an expression's text: `_`, letters and digits.
    ///
    /// The marker is found by bytes (it is ASCII, so a match starts on a character's first byte), and a name of
    /// ASCII letters and digits is read by bytes too: inference writes `$source.name` for every attribute of every
    /// changed entity, at every step of a chain. A name that reaches a byte beyond ASCII may go on in a character
    /// that byte starts (a combining accent on its last letter), so it is read again by characters.
    static func firstNames(in text: String) -> Set<String> {
        var names: Set<String> = []
        let marker = Array("$source.".utf8)
        let utf8 = text.utf8
        var index = utf8.startIndex
        while let dollar = utf8[index...].firstIndex(of: UInt8(ascii: "$")) {
            guard utf8[dollar...].starts(with: marker) else {
                index = utf8.index(after: dollar)
                continue
            }
            let start = utf8.index(dollar, offsetBy: marker.count)
            let end = utf8[start...].firstIndex { !isNameByte($0) } ?? utf8.endIndex
            if end != utf8.endIndex, utf8[end] >= 0x80 {
                let name = text[start...].prefix { $0 == "_" || $0.isLetter || $0.isNumber }
                if !name.isEmpty { names.insert(String(name)) }
            } else if end != start {
                names.insert(String(text[start..<end]))
            }
            index = start
        }
        return names
    }

    /// `_`, an ASCII letter or digit: the ASCII characters `Character.isLetter` or `isNumber` holds for.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte == 0x5F || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
            || (byte >= 0x61 && byte <= 0x7A)
    }
}
