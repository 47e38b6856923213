import Remodel

/// Turns the keyed archive of an `NSManagedObjectModel` into a ``CompiledModel``.
///
/// What the archive holds (read from the real stores of `shared/corpus-coredata`; docs/CORE-DATA-STORES.md):
/// the model's `NSEntities` is an `NSKnownKeysDictionary1` (`values`, and the keys in `searchMapping.keys`)
/// or a plain dictionary; each `NSEntityDescription` has `NSEntityName`, `NSClassNameForEntity`,
/// `NSSuperentity`, `NSIsAbstract`, `NSProperties` (name → description), `NSUniqueTuples`,
/// `NSFetchIndexDescriptions`, `NSRenamingIdentifier`, `NSVersionHashModifier`, `NSUserInfo`. A
/// sub-entity's `NSProperties` repeat its parents' (each with `NSEntity` set to the sub-entity), so a
/// property belongs to the highest entity that has it. Flags `NSCoder` leaves out when false are false.
struct CompiledModelDecoder {
    let archive: KeyedArchive
    typealias Failure = CompiledModel.Failure

    /// Core Data's attribute type codes (`NSAttributeType`, public in Apple's SDK headers).
    static let attributeTypes: [Int64: AttributeType] = [
        0: .undefined, 100: .integer16, 200: .integer32, 300: .integer64, 400: .decimal, 500: .double, 600: .float,
        700: .string, 800: .boolean, 900: .date, 1000: .binary, 1100: .uuid, 1200: .uri, 1800: .transformable,
        2000: .objectID, 2100: .composite,
    ]

    /// `NSDeleteRule`: `NSDeleteRule` raw values (public).
    static let deletionRules: [Int64: DeletionRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]

    /// `NSFlagsKey` bits of an attribute: a maximum, a minimum, external binary storage, and the value kept
    /// in persistent history after deletion (the last seen in the fixtures as 16 for `preserveAfterDeletion`).
    enum FlagBit {
        static let hasMaximum: Int64 = 1
        static let hasMinimum: Int64 = 2
        static let externalStorage: Int64 = 4
        static let preservesValueAfterDeletion: Int64 = 16
    }

    func model() throws(Failure) -> CompiledModel {
        guard case .object(let root) = try resolve({ () throws(KeyedArchive.Failure) in try archive.root() }) else {
            throw Failure(message: "the archive's root is not an NSManagedObjectModel")
        }
        guard root.className == "NSManagedObjectModel" else {
            throw Failure.unread(root.className, at: "the archive's root")
        }
        guard let entitiesValue = try value(root, "NSEntities") else {
            throw Failure(message: "the model has no NSEntities")
        }
        var compiled: [(entity: CompiledModel.Entity, properties: Set<String>, parent: String?)] = []
        for (key, value) in try dictionary(entitiesValue, what: "the model's NSEntities") {
            guard case .object(let object) = value else {
                throw Failure(message: "NSEntities[\(key)] is not an NSEntityDescription")
            }
            guard object.className == "NSEntityDescription" else {
                throw Failure.unread(object.className, at: "NSEntities[\(key)]")
            }
            compiled.append(try entity(object))
        }
        let propertiesByEntity = Dictionary(compiled.map { ($0.entity.name, $0.properties) }) { first, _ in first }
        guard propertiesByEntity.count == compiled.count else {
            throw Failure(message: "the model names an entity twice")
        }
        var entities: [CompiledModel.Entity] = []
        for (compiledEntity, _, parent) in compiled {
            var entity = compiledEntity
            if let parent {
                guard let inherited = propertiesByEntity[parent] else {
                    throw Failure(
                        message: "entity \(entity.name)'s parent \(parent) is not one of the model's entities")
                }
                entity.attributes.removeAll { inherited.contains($0.name) }
                entity.relationships.removeAll { inherited.contains($0.name) }
                let parentEntity = compiled.first { $0.entity.name == parent }?.entity
                entity.uniquenessConstraints.removeAll { parentEntity?.uniquenessConstraints.contains($0) == true }
                entity.fetchIndexes.removeAll { index in
                    parentEntity?.fetchIndexes.contains { $0.name == index.name } == true
                }
            }
            entities.append(entity)
        }
        var identifiers: [String] = []
        if let set = try value(root, "NSVersionIdentifiers") {
            for element in try elements(set, what: "NSVersionIdentifiers") {
                guard let text = element.string else {
                    throw Failure(message: "NSVersionIdentifiers holds a non-string")
                }
                try Self.checkWritable(text, what: "NSVersionIdentifiers")
                identifiers.append(text)
            }
        }
        var model = CompiledModel(
            entities: entities.sorted { $0.name < $1.name }, versionIdentifiers: identifiers.sorted())
        model.nameComposites()
        if let templates = try value(root, "NSFetchRequestTemplates") {
            model.fetchRequestNames = try dictionary(templates, what: "NSFetchRequestTemplates").map(\.0).sorted()
        }
        return model
    }

    // MARK: - Entities and properties

    private func entity(_ object: ArchivedObject) throws(Failure) -> (
        entity: CompiledModel.Entity, properties: Set<String>, parent: String?
    ) {
        guard let name = try string(object, "NSEntityName"), !name.isEmpty else {
            throw Failure(message: "an entity has no NSEntityName")
        }
        var entity = CompiledModel.Entity(name: name)
        entity.className = try string(object, "NSClassNameForEntity")
        entity.isAbstract = flag(object, "NSIsAbstract")
        entity.renamingIdentifier = try string(object, "NSRenamingIdentifier").flatMap { $0 == name ? nil : $0 }
        entity.versionHashModifier = try string(object, "NSVersionHashModifier")
        entity.userInfo = try userInfo(object, of: "entity \(name)")
        var parent: String?
        if let superentity = try value(object, "NSSuperentity") {
            guard case .object(let parentObject) = superentity,
                let parentName = try string(parentObject, "NSEntityName")
            else { throw Failure(message: "entity \(name)'s NSSuperentity is not an entity") }
            parent = parentName
        }
        entity.parentName = parent
        var names: Set<String> = []
        if let properties = try value(object, "NSProperties") {
            for (key, property) in try dictionary(properties, what: "entity \(name)'s NSProperties") {
                guard case .object(let description) = property else {
                    throw Failure(message: "entity \(name)'s property \(key) is not a property description")
                }
                names.insert(key)
                switch try self.property(description, named: key, in: name) {
                case .attribute(let attribute): entity.attributes.append(attribute)
                case .relationship(let relationship): entity.relationships.append(relationship)
                case .fetched: names.remove(key)  // a fetch request, nothing stored
                }
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        if let tuples = try value(object, "NSUniqueTuples") {
            for tuple in try elements(tuple: tuples, entity: name) { entity.uniquenessConstraints.append(tuple) }
        }
        if let indexes = try value(object, "NSFetchIndexDescriptions") {
            for index in try elements(indexes, what: "entity \(name)'s NSFetchIndexDescriptions") {
                entity.fetchIndexes.append(try fetchIndex(index, entity: name))
            }
        }
        Self.undoIndexCompilation(&entity)
        return (entity, names, parent)
    }

    /// The model compiler turns a fetch index of one attribute into that attribute's `NSIsIndexed` and a
    /// fetch index named after the attribute (Bookmarks 2: `byUUID` on `uuid` became `uuid` indexed and a
    /// fetch index `uuid`; the store has both indexes). Undone so the model reads as it was written: the
    /// fetch index named after an indexed attribute goes, and so does the flag when another one-attribute
    /// fetch index on it explains it.
    static func undoIndexCompilation(_ entity: inout CompiledModel.Entity) {
        for position in entity.attributes.indices where entity.attributes[position].isIndexed {
            let name = entity.attributes[position].name
            let single: (CompiledModel.FetchIndex) -> Bool = {
                $0.elements.count == 1 && $0.elements[0].property == name && $0.elements[0].ascending
            }
            guard let synthesized = entity.fetchIndexes.firstIndex(where: { $0.name == name && single($0) }) else {
                continue
            }
            entity.fetchIndexes.remove(at: synthesized)
            if entity.fetchIndexes.contains(where: single) { entity.attributes[position].isIndexed = false }
        }
    }

    /// What a property description is.
    private enum Property {
        case attribute(CompiledModel.Attribute)
        case relationship(CompiledModel.Relationship)
        /// A fetched property: a fetch request, nothing stored.
        case fetched
    }

    /// Reads a property description of any class Core Data archives in `NSProperties`. A sub-entity's copy
    /// of what it inherits may be an `_NSPropertyDescriptionProxy` (framework 640–641: wire's stores),
    /// whose `NSUnderlyingProperty` is the description and `NSEntityDescription` the sub-entity.
    private func property(_ description: ArchivedObject, named key: String, in entity: String, proxied: Bool = false)
        throws(Failure) -> Property
    {
        switch description.className {
        case "NSAttributeDescription":
            return .attribute(try attribute(description, named: key, in: entity))
        case "NSDerivedAttributeDescription":
            var attribute = try attribute(description, named: key, in: entity)
            try derivation(of: description, into: &attribute, in: entity)
            return .attribute(attribute)
        case "NSCompositeAttributeDescription":
            return .attribute(try compositeAttribute(description, named: key, in: entity, depth: 0))
        case "NSRelationshipDescription":
            return .relationship(try relationship(description, named: key, in: entity))
        case "NSFetchedPropertyDescription":
            return .fetched
        case "_NSPropertyDescriptionProxy" where !proxied:
            guard case .object(let underlying)? = try value(description, "NSUnderlyingProperty") else {
                throw Failure(message: "entity \(entity)'s property \(key) is a proxy without NSUnderlyingProperty")
            }
            return try property(underlying, named: key, in: entity, proxied: true)
        default:
            throw Failure.unread(description.className, at: "entity \(entity)'s property \(key)")
        }
    }

    func attribute(_ object: ArchivedObject, named key: String, in entity: String) throws(Failure)
        -> CompiledModel.Attribute
    {
        let what = "attribute \(entity).\(key)"
        let name = try string(object, "NSPropertyName") ?? key
        let code = object.integer("NSAttributeType")
        guard let type = Self.attributeTypes[code] else {
            throw Failure(message: "\(what) has type code \(code), which Remodel does not know")
        }
        var attribute = CompiledModel.Attribute(name: name, type: type)
        attribute.isOptional = flag(object, "NSIsOptional")
        attribute.isTransient = flag(object, "NSIsTransient")
        attribute.isIndexed = flag(object, "NSIsIndexed")
        attribute.renamingIdentifier = try string(object, "NSRenamingIdentifier").flatMap { $0 == name ? nil : $0 }
        attribute.versionHashModifier = try string(object, "NSVersionHashModifier")
        attribute.valueTransformerName = try string(object, "NSValueTransformerName")
        if type == .transformable || type == .binary {
            attribute.valueClassName = try string(object, "NSAttributeValueClassName").flatMap {
                $0 == "NSData" ? nil : $0
            }
        }
        attribute.userInfo = try userInfo(object, of: what)
        let flags = object.integer("NSFlagsKey")
        attribute.allowsExternalStorage = flags & FlagBit.externalStorage != 0
        attribute.preservesValueAfterDeletion = flags & FlagBit.preservesValueAfterDeletion != 0
        // Bounds are integers for integer types and string lengths, else doubles (dates in seconds since 2001).
        let integral = type.isInteger || type == .string || type == .binary
        if flags & FlagBit.hasMaximum != 0 { attribute.maximum = bound(object, "NSMaxValueName", integral, type) }
        if flags & FlagBit.hasMinimum != 0 { attribute.minimum = bound(object, "NSMinValueName", integral, type) }
        if let value = try value(object, "NSDefaultValue") {
            attribute.defaultValue = try defaultValue(value, type: type, of: what)
        }
        if object.className == "NSDerivedAttributeDescription" {
            if let text = ArchivedDerivation.text(of: object) {
                try Self.checkWritable(text, what: "\(what)'s derivation")
                attribute.derivationExpression = text
            }
        }
        return attribute
    }

    private func bound(_ object: ArchivedObject, _ key: String, _ integral: Bool, _ type: AttributeType)
        -> CompiledModel.Value?
    {
        guard let field = object.fields[key] else { return nil }
        switch field {
        case .integer(let number):
            return type == .date ? .date(Double(number)) : integral ? .integer(number) : .real(Double(number))
        case .real(let number):
            if type == .date { return .date(number) }
            if integral, let whole = Int64(exactly: number) { return .integer(whole) }
            return .real(number)
        default: return nil
        }
    }

    private func relationship(_ object: ArchivedObject, named key: String, in entity: String) throws(Failure)
        -> CompiledModel.Relationship
    {
        let what = "relationship \(entity).\(key)"
        let name = try string(object, "NSPropertyName") ?? key
        var destination = try string(object, "_NSDestinationEntityName")
        if destination == nil, case .object(let target)? = try value(object, "NSDestinationEntity") {
            destination = try string(target, "NSEntityName")
        }
        guard let destination else { throw Failure(message: "\(what) has no destination entity") }
        var relationship = CompiledModel.Relationship(name: name, destination: destination)
        relationship.inverseName = try string(object, "_NSInverseRelationshipName")
        if relationship.inverseName == nil, case .object(let inverse)? = try value(object, "NSInverseRelationship") {
            relationship.inverseName = try string(inverse, "NSPropertyName")
        }
        relationship.isOptional = flag(object, "NSIsOptional")
        relationship.isTransient = flag(object, "NSIsTransient")
        relationship.isOrdered = flag(object, "NSIsOrdered")
        relationship.minCount = Int(clamping: object.integer("NSMinCount"))
        relationship.maxCount = Int(clamping: object.integer("NSMaxCount"))
        relationship.isToMany = relationship.maxCount != 1
        guard relationship.minCount >= 0, relationship.maxCount >= 0 else {
            throw Failure(message: "\(what) has a negative minimum or maximum count")
        }
        let rule = object.integer("NSDeleteRule")
        guard let deletion = Self.deletionRules[rule] else {
            throw Failure(message: "\(what) has delete rule \(rule), which Core Data does not define")
        }
        relationship.deletionRule = deletion
        relationship.renamingIdentifier = try string(object, "NSRenamingIdentifier").flatMap { $0 == name ? nil : $0 }
        relationship.versionHashModifier = try string(object, "NSVersionHashModifier")
        relationship.userInfo = try userInfo(object, of: what)
        return relationship
    }

    private func fetchIndex(_ value: ArchivedValue, entity: String) throws(Failure) -> CompiledModel.FetchIndex {
        guard case .object(let index) = value, let name = try string(index, "NSIndexName") else {
            throw Failure(message: "entity \(entity) has a fetch index without a name")
        }
        var result = CompiledModel.FetchIndex(name: name, elements: [])
        if let elements = try self.value(index, "NSIndexElements") {
            for element in try self.elements(elements, what: "fetch index \(entity).\(name)") {
                guard case .object(let description) = element else {
                    throw Failure(message: "fetch index \(entity).\(name) has an element that is not a description")
                }
                var property = try string(description, "NSPropertyName")
                if property == nil, case .object(let target)? = try self.value(description, "NSProperty") {
                    property = try string(target, "NSPropertyName")
                }
                guard let property else {
                    throw Failure(message: "fetch index \(entity).\(name) has an element without a property")
                }
                let ascending = description.fields["NSAscending"].map { $0.integer != 0 } ?? true
                result.elements.append((property, ascending))
            }
        }
        return result
    }

    /// `NSUniqueTuples`: an array of arrays of property names (or property descriptions).
    private func elements(tuple value: ArchivedValue, entity: String) throws(Failure) -> [[String]] {
        var result: [[String]] = []
        for tuple in try elements(value, what: "entity \(entity)'s NSUniqueTuples") {
            var names: [String] = []
            for element in try elements(tuple, what: "a uniqueness constraint of \(entity)") {
                if let text = element.string {
                    try Self.checkWritable(text, what: "a uniqueness constraint of \(entity)")
                    names.append(text)
                } else if case .object(let property) = element, let name = try string(property, "NSPropertyName") {
                    names.append(name)
                } else {
                    throw Failure(message: "a uniqueness constraint of \(entity) holds something that is not a name")
                }
            }
            result.append(names)
        }
        return result
    }
}
