import Foundation

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// Writes what Core Data keeps in `Z_MODELCACHE` for a model, shaped as the real stores of
/// `shared/corpus-coredata` have it: an `NSKeyedArchiver` archive of an `NSManagedObjectModel` whose
/// `NSEntities` is an `NSKnownKeysDictionary1`, each entity's `NSProperties` repeating its parents'
/// (with `NSEntity` the sub-entity), flags left out when false, then raw DEFLATE (stored blocks).
struct ModelCacheWriter {
    typealias Value = BinaryPropertyListWriter.Value

    private var objects: [Value] = [.string("$null")]
    private var classes: [String: Int] = [:]

    /// The other classes Core Data archives in a compiled model, written where asked.
    struct Extras {
        /// A sub-entity's copy of each inherited property as an `_NSPropertyDescriptionProxy` whose
        /// `NSUnderlyingProperty` is the ancestor's description (framework 640–641).
        var proxiesForInherited = false
        /// `NSDerivedAttributeDescription`s: entity, name, and the key path of their `NSKeyPathExpression`.
        var derived: [(entity: String, name: String, keyPath: String)] = []
        /// `NSFetchedPropertyDescription`s: entity and name.
        var fetched: [(entity: String, name: String)] = []
        /// A property of a class Core Data does not write (as a newer release might): entity, name, class.
        var unknown: (entity: String, name: String, className: String)?
        /// `NSFetchRequestTemplates`: names, each an `NSFetchRequest` of the first entity with a predicate.
        var fetchRequests: [String] = []
    }

    /// The compressed archive of `version`; `identifiers` become `NSVersionIdentifiers`.
    static func cache(of version: ModelVersion, identifiers: [String] = [""], extras: Extras = Extras()) -> [UInt8] {
        BinaryPropertyListWriter.storedDeflate(archive(of: version, identifiers: identifiers, extras: extras))
    }

    /// The keyed archive of `version` before compression.
    static func archive(of version: ModelVersion, identifiers: [String] = [""], extras: Extras = Extras()) -> [UInt8] {
        var writer = ModelCacheWriter()
        writer.extras = extras
        let root = writer.model(version, identifiers: identifiers)
        let archive: Value = .dictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", .uid(root))])), ("$objects", .array(writer.objects)),
        ])
        return BinaryPropertyListWriter.encode(archive)
    }

    private var extras = Extras()
    /// The description written for each property, by `Entity.property` of the entity declaring it.
    private var descriptions: [String: Int] = [:]

    private mutating func append(_ value: Value) -> Int {
        objects.append(value)
        return objects.count - 1
    }

    private mutating func classReference(_ name: String) -> Value {
        if let index = classes[name] { return .uid(index) }
        let index = append(
            .dictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
        classes[name] = index
        return .uid(index)
    }

    private mutating func string(_ text: String?) -> Value {
        guard let text else { return .uid(0) }
        return .uid(append(.string(text)))
    }

    private mutating func object(_ className: String, _ fields: [(String, Value)]) -> Int {
        let index = append(.string("placeholder"))
        objects[index] = .dictionary([("$class", classReference(className))] + fields)
        return index
    }

    private mutating func array(_ className: String, _ references: [Value]) -> Int {
        object(className, [("NS.objects", .array(references))])
    }

    private mutating func dictionary(_ entries: [(String, Value)]) -> Int {
        let keys = entries.map { string($0.0) }
        return object("NSMutableDictionary", [("NS.keys", .array(keys)), ("NS.objects", .array(entries.map(\.1)))])
    }

    private mutating func model(_ version: ModelVersion, identifiers: [String]) -> Int {
        let model = append(.string("placeholder"))
        var entityIndex: [String: Int] = [:]
        for entity in version.entities { entityIndex[entity.name] = append(.string("placeholder")) }
        for entity in version.entities {
            var properties: [(String, Value)] = []
            for attribute in version.attributes(of: entity) {
                let owner = declarer(of: attribute.name, in: entity, version)
                if extras.proxiesForInherited, owner != entity.name,
                    let underlying = descriptions["\(owner).\(attribute.name)"]
                {
                    properties.append((attribute.name, .uid(proxy(underlying, entity: entityIndex[entity.name] ?? 0))))
                    continue
                }
                let index = attributeObject(attribute, in: version, entity: entityIndex[entity.name] ?? 0)
                descriptions["\(entity.name).\(attribute.name)"] = index
                properties.append((attribute.name, .uid(index)))
            }
            for relationship in version.relationships(of: entity) {
                var fields: [(String, Value)] = [
                    ("NSPropertyName", string(relationship.name)), ("NSEntity", .uid(entityIndex[entity.name] ?? 0)),
                    ("_NSDestinationEntityName", string(relationship.destinationEntity)),
                    ("NSDestinationEntity", .uid(relationship.destinationEntity.flatMap { entityIndex[$0] } ?? 0)),
                    ("_NSInverseRelationshipName", string(relationship.inverseName)),
                    ("NSMinCount", .integer(Int64(relationship.minCount ?? 0))),
                    ("NSMaxCount", .integer(relationship.isToMany ? Int64(relationship.maxCount ?? 0) : 1)),
                    ("NSDeleteRule", .integer(relationship.deletionRule == .cascade ? 2 : 1)),
                    ("NSRenamingIdentifier", string(relationship.elementID ?? relationship.name)),
                ]
                if relationship.isOptional { fields.append(("NSIsOptional", .bool(true))) }
                if relationship.isOrdered { fields.append(("NSIsOrdered", .bool(true))) }
                let owner = version.declaringEntity(of: relationship, in: entity).name
                if extras.proxiesForInherited, owner != entity.name,
                    let underlying = descriptions["\(owner).\(relationship.name)"]
                {
                    properties.append(
                        (relationship.name, .uid(proxy(underlying, entity: entityIndex[entity.name] ?? 0))))
                    continue
                }
                let index = object("NSRelationshipDescription", fields)
                descriptions["\(entity.name).\(relationship.name)"] = index
                properties.append((relationship.name, .uid(index)))
            }
            properties += extraProperties(of: entity.name, entityIndex: entityIndex[entity.name] ?? 0)
            let subentities = version.subentities(of: entity).map { ($0.name, Value.uid(entityIndex[$0.name] ?? 0)) }
            var fields: [(String, Value)] = [
                ("NSEntityName", string(entity.name)),
                ("NSClassNameForEntity", string(entity.className ?? entity.name)),
                ("NSProperties", .uid(dictionary(properties))), ("NSSubentities", .uid(dictionary(subentities))),
                ("NSSuperentity", .uid(version.parent(of: entity).flatMap { entityIndex[$0.name] } ?? 0)),
                ("NSRenamingIdentifier", string(entity.elementID ?? entity.name)),
                ("NSVersionHashModifier", string(entity.versionHashModifier)),
                ("NSManagedObjectModel", .uid(model)), ("NSUserInfo", .uid(dictionary([]))),
            ]
            if entity.isAbstract { fields.append(("NSIsAbstract", .bool(true))) }
            if !entity.uniquenessConstraints.isEmpty {
                let tuples = entity.uniquenessConstraints.map { constraint in
                    Value.uid(array("NSMutableArray", constraint.properties.map { string($0) }))
                }
                fields.append(("NSUniqueTuples", .uid(array("NSMutableArray", tuples))))
            }
            objects[entityIndex[entity.name] ?? 0] = .dictionary(
                [("$class", classReference("NSEntityDescription"))] + fields)
        }
        let names = version.entities.map(\.name).sorted()
        let keys = array("NSArray", names.map { string($0) })
        let mapping = object(
            "NSKnownKeysMappingStrategy1",
            [("keys", .uid(keys)), ("length", .integer(Int64(names.count))), ("version", .integer(1))])
        let values = array("NSArray", names.map { .uid(entityIndex[$0] ?? 0) })
        let entities = object(
            "NSKnownKeysDictionary1",
            [
                ("values", .uid(values)), ("searchMapping", .uid(mapping)), ("version", .integer(1)),
                ("emptyToken", string("__empty")),
            ])
        let versionIdentifiers = array("NSSet", identifiers.map { string($0) })
        objects[model] = .dictionary([
            ("$class", classReference("NSManagedObjectModel")), ("NSEntities", .uid(entities)),
            ("NSVersionIdentifiers", .uid(versionIdentifiers)),
            ("NSFetchRequestTemplates", extras.fetchRequests.isEmpty ? .uid(0) : .uid(fetchRequests(version))),
        ])
        return model
    }

    /// An attribute's description; a composite's is an `NSCompositeAttributeDescription` whose
    /// `NSCompositeElements` are its members' descriptions (nested composites alike), named by its composite.
    private mutating func attributeObject(_ attribute: Attribute, in version: ModelVersion, entity: Int) -> Int {
        var fields: [(String, Value)] = [
            ("NSPropertyName", string(attribute.name)), ("NSEntity", .uid(entity)),
            ("NSAttributeType", .integer(Self.code(of: attribute.type))),
            ("NSRenamingIdentifier", string(attribute.elementID ?? attribute.name)),
            ("NSDefaultValue", defaultValue(attribute)),
            ("NSValueTransformerName", string(attribute.valueTransformerName)),
            ("NSAttributeValueClassName", string(attribute.compositeName)),
        ]
        if attribute.isOptional { fields.append(("NSIsOptional", .bool(true))) }
        if attribute.isTransient { fields.append(("NSIsTransient", .bool(true))) }
        let external = attribute.source.attributes["allowsExternalBinaryDataStorage"] == "YES"
        fields.append(("NSFlagsKey", .integer(external ? 4 : 0)))
        guard attribute.type == .composite else { return object("NSAttributeDescription", fields) }
        let elements = version.members(of: attribute).map { member in
            Value.uid(attributeObject(member, in: version, entity: entity))
        }
        fields.append(("NSCompositeElements", .uid(array("NSArray", elements))))
        return object("NSCompositeAttributeDescription", fields)
    }

    /// The entity declaring the attribute `name` of `entity` (itself or an ancestor).
    private func declarer(of name: String, in entity: Entity, _ version: ModelVersion) -> String {
        var current: Entity? = entity
        while let found = current {
            if found.attributes.contains(where: { $0.name == name }) { return found.name }
            current = version.parent(of: found)
        }
        return entity.name
    }

    private mutating func proxy(_ underlying: Int, entity: Int) -> Int {
        object(
            "_NSPropertyDescriptionProxy",
            [
                ("NSReferenceID", .integer(0)), ("NSUnderlyingProperty", .uid(underlying)),
                ("NSEntityDescription", .uid(entity)),
            ])
    }

    /// `valueForKeyPath:` of `SELF` with the key path: how Foundation archives `NSExpression(forKeyPath:)`.
    private mutating func keyPathExpression(_ path: String) -> Int {
        let me = object("NSSelfExpression", [("NSExpressionType", .integer(1))])
        let specifier = object(
            "NSKeyPathSpecifierExpression", [("NSKeyPath", string(path)), ("NSExpressionType", .integer(10))])
        return object(
            "NSKeyPathExpression",
            [
                ("NSOperand", .uid(me)), ("NSSelectorName", string("valueForKeyPath:")),
                ("NSArguments", .uid(array("NSArray", [.uid(specifier)]))), ("NSExpressionType", .integer(3)),
            ])
    }

    private mutating func extraProperties(of entity: String, entityIndex: Int) -> [(String, Value)] {
        var properties: [(String, Value)] = []
        for derived in extras.derived where derived.entity == entity {
            let fields: [(String, Value)] = [
                ("NSPropertyName", string(derived.name)), ("NSEntity", .uid(entityIndex)),
                ("NSAttributeType", .integer(200)), ("NSIsOptional", .bool(true)),
                ("NSDerivationExpression", .uid(keyPathExpression(derived.keyPath))),
            ]
            properties.append((derived.name, .uid(object("NSDerivedAttributeDescription", fields))))
        }
        for fetched in extras.fetched where fetched.entity == entity {
            let request = fetchRequest(entity: entity)
            properties.append(
                (
                    fetched.name,
                    .uid(
                        object(
                            "NSFetchedPropertyDescription",
                            [
                                ("NSPropertyName", string(fetched.name)), ("NSEntity", .uid(entityIndex)),
                                ("NSFetchRequest", .uid(request)),
                            ]))
                ))
        }
        if let unknown = extras.unknown, unknown.entity == entity {
            properties.append(
                (
                    unknown.name,
                    .uid(
                        object(
                            unknown.className,
                            [("NSPropertyName", string(unknown.name)), ("NSEntity", .uid(entityIndex))]))
                ))
        }
        return properties
    }

    /// An `NSFetchRequest` of `entity` whose predicate is `name != nil`.
    private mutating func fetchRequest(entity: String) -> Int {
        let operation = object("NSPredicateOperator", [("NSOperatorType", .integer(5)), ("NSModifier", .integer(0))])
        let nothing = object("NSConstantValueExpression", [("NSExpressionType", .integer(0))])
        let predicate = object(
            "NSComparisonPredicate",
            [
                ("NSLeftExpression", .uid(keyPathExpression("name"))), ("NSRightExpression", .uid(nothing)),
                ("NSPredicateOperator", .uid(operation)),
            ])
        return object(
            "NSFetchRequest",
            [("NSEntityName", string(entity)), ("NSPredicate", .uid(predicate)), ("NSFetchLimit", .integer(0))])
    }

    private mutating func fetchRequests(_ version: ModelVersion) -> Int {
        let entity = version.entities.first?.name ?? ""
        return dictionary(extras.fetchRequests.map { ($0, .uid(fetchRequest(entity: entity))) })
    }

    private mutating func defaultValue(_ attribute: Attribute) -> Value {
        guard let text = attribute.defaultValue else { return .uid(0) }
        switch attribute.type {
        case .boolean: return .bool(text == "YES")
        case .integer16, .integer32, .integer64: return Int64(text).map(Value.integer) ?? .uid(0)
        case .double, .float: return Double(text).map(Value.real) ?? .uid(0)
        default: return string(text)
        }
    }

    static func code(of type: AttributeType) -> Int64 {
        CompiledModelDecoder.attributeTypes.first { $0.value == type }?.key ?? 0
    }
}
