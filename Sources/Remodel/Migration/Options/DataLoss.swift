/// Stored values a step loses, counted: values its mapping drops on purpose (a property of a source entity
/// nothing in the destination is computed from, or an entity with no destination at all), and values a
/// conversion or expression turned into nil (``Cause/becameNil(expression:example:)``). The plan lists every
/// drop, and a migration reports how many values each lost, so that nothing goes without being said.
///
/// For example:
/// ```swift
/// for loss in try await migrator.migrate(storeAt: path).losses { print(loss) }
/// // Library → Library 2 drops Person.email (3 values)
/// // Library → Library 2: `int(trim($source.age))` gave nil for 1 value of Person.age, e.g. _pk 2 'forty'
/// ```
public struct DataLoss: Sendable, Hashable, CustomStringConvertible {
    /// The step: its source and destination version names.
    public var sourceVersion: String
    public var destinationVersion: String
    /// The source entity of a drop; the destination entity of values that became nil.
    public var entity: String
    /// The property dropped (nil when the entity's objects are dropped), or the destination attribute whose
    /// values became nil.
    public var property: String?
    /// How many stored values (non-nil attribute values, links, or objects) are lost, when they were counted.
    public var count: Int?
    /// How the values are lost.
    public var cause: Cause = .dropped

    /// How values are lost.
    public enum Cause: Sendable, Hashable {
        /// The mapping drops them: nothing in the destination is computed from them.
        case dropped
        /// The expression (or conversion) computing the destination attribute gave nil although every value it
        /// reads was non-nil (`int(trim($source.age))` reading `"forty"`), or, for a required attribute with a
        /// default, the default, which took the nil's place. A nil `expression` is an entity policy (Swift code)
        /// that left the attribute nil where the source attribute it is mapped from held a value. `example` is
        /// the first such source object.
        case becameNil(expression: String?, example: Example?)
    }

    /// One source object whose values an expression turned into nil: its `_pk` and the values the
    /// expression read, as text (`'forty'`; `firstName 'Ada', age 'x'` when it reads several).
    public struct Example: Sendable, Hashable {
        public var primaryKey: Int64
        public var values: String

        init(primaryKey: Int64, values: String) {
            self.primaryKey = primaryKey
            self.values = values
        }

        /// Values read by an expression, as an example shows them: one alone as itself (`'forty'`), several
        /// each after its key path (`firstName 'Ada', age 3`). Long text is cut.
        static func describe(_ values: [(keyPath: String, value: SQLiteValue)]) -> String {
            func shown(_ value: SQLiteValue) -> String {
                switch value {
                case .null: return "nil"
                case .integer(let number): return String(number)
                case .real(let number): return "\(number)"
                case .text(let text):
                    let scalars = text.unicodeScalars
                    guard scalars.count > 40 else { return "'\(text)'" }
                    var cut = String.UnicodeScalarView()
                    cut.append(contentsOf: scalars.prefix(40))
                    return "'\(String(cut))…'"
                case .blob(let bytes): return bytes.count == 1 ? "1 byte" : "\(bytes.count) bytes"
                }
            }
            if values.count == 1 { return shown(values[0].value) }
            let prefix = "$source."
            return values.map { keyPath, value in
                let name = keyPath.hasPrefix(prefix) ? String(keyPath.dropFirst(prefix.count)) : keyPath
                return "\(name) \(shown(value))"
            }.joined(separator: ", ")
        }
    }

    /// A loss of values the mapping drops.
    init(
        sourceVersion: String, destinationVersion: String, entity: String, property: String?, count: Int? = nil
    ) {
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.entity = entity
        self.property = property
        self.count = count
    }

    /// What is lost and how much, without the step: `Person.email (3 values)`, or
    /// "`int($source.age)` gave nil for 1 value of Person.age, e.g. _pk 2 'forty'".
    public var detail: String {
        if case .becameNil(let expression, let example) = cause {
            let values = (count ?? 0) == 1 ? "1 value" : "\(count ?? 0) values"
            let first = example.map { ", e.g. _pk \($0.primaryKey) \($0.values)" } ?? ""
            let by = expression.map { "`\($0)`" } ?? "the entity policy"
            return "\(by) gave nil for \(values) of \(entity).\(property ?? "")\(first)"
        }
        let what = property.map { "\(entity).\($0)" } ?? "\(entity) objects"
        let how: String
        switch (property, count) {
        case (_, nil): how = "counted when the step runs"
        case (nil, let count?): how = count == 1 ? "1 object" : "\(count) objects"
        case (_, let count?): how = count == 1 ? "1 value" : "\(count) values"
        }
        return "\(what) (\(how))"
    }

    /// Whether the values became nil (rather than being dropped by the mapping).
    public var becameNil: Bool {
        if case .becameNil = cause { return true }
        return false
    }

    public var description: String {
        becameNil
            ? "\(sourceVersion) → \(destinationVersion): \(detail)"
            : "\(sourceVersion) → \(destinationVersion) drops \(detail)"
    }
}

extension DataLoss {
    /// Losses of one step with values that became nil merged where they are the same attribute's by the same
    /// expression (two entity mappings into one entity): the counts added, the first example kept.
    static func merged(_ losses: [DataLoss]) -> [DataLoss] {
        var merged: [DataLoss] = []
        for loss in losses {
            if case .becameNil(let expression, _) = loss.cause,
                let index = merged.firstIndex(where: { other in
                    guard case .becameNil(let otherExpression, _) = other.cause else { return false }
                    return other.entity == loss.entity && other.property == loss.property
                        && otherExpression == expression
                })
            {
                merged[index].count = (merged[index].count ?? 0) + (loss.count ?? 0)
                continue
            }
            merged.append(loss)
        }
        return merged
    }

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
            let mappings = step.mapping.entities.filter { $0.source.map { SQLName.identical($0, entity.name) } == true }
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
            // A derived attribute's values are the store's computation: none is lost with it.
            for attribute in layout.storedAttributes(of: entity)
            where !read.contains(attribute.name) && !attribute.isComputedByStore {
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
                            && mapping.relationships.contains {
                                $0.source.map { SQLName.identical($0, inverse.name) } == true
                            }
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
