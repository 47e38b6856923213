import Foundation

@testable import Remodel
@testable import RemodelCoreData

/// Writes what Core Data keeps in `Z_MODELCACHE` for a model, shaped as the real stores of
/// `shared/corpus-coredata` have it: an `NSKeyedArchiver` archive of an `NSManagedObjectModel` whose
/// `NSEntities` is an `NSKnownKeysDictionary1`, each entity's `NSProperties` repeating its parents'
/// (with `NSEntity` the sub-entity), flags left out when false, then raw DEFLATE (stored blocks).
struct ModelCacheWriter {
    typealias Value = BinaryPropertyListWriter.Value

    private var objects: [Value] = [.string("$null")]
    private var classes: [String: Int] = [:]

    /// The compressed archive of `version`; `identifiers` become `NSVersionIdentifiers`.
    static func cache(of version: ModelVersion, identifiers: [String] = [""]) -> [UInt8] {
        var writer = ModelCacheWriter()
        let root = writer.model(version, identifiers: identifiers)
        let archive: Value = .dictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", .uid(root))])), ("$objects", .array(writer.objects)),
        ])
        return BinaryPropertyListWriter.storedDeflate(BinaryPropertyListWriter.encode(archive))
    }

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
                let description = attributeObject(attribute, in: version, entity: entityIndex[entity.name] ?? 0)
                properties.append((attribute.name, .uid(description)))
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
                properties.append((relationship.name, .uid(object("NSRelationshipDescription", fields))))
            }
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
            ("NSVersionIdentifiers", .uid(versionIdentifiers)), ("NSFetchRequestTemplates", .uid(0)),
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
