/// Composite attributes in a Core Data store: Core Data keeps no column for the composite itself but one for
/// each leaf member (nested composites flattened), named as an attribute of the leaf's own name is
/// (`Z<LEAF>`, numbered where names clash in the hierarchy: `ZCITY1`), of the leaf's type
/// (`NSSQLEntity._generateProperties` creates an `NSSQLAttribute` per element of
/// `NSCompositeAttributeDescription._flattenedElements`; docs/CORE-DATA-STORES.md, "Composite attributes").
/// The import reads the leaves of each object back into the composite's JSON object.
extension CoreDataMapping {
    /// One Remodel composite column and the Core Data leaf columns that fill it, for the objects of some entities.
    package struct CompositeColumn: Sendable, Hashable {
        package struct Source: Sendable, Hashable {
            /// The entity numbers (`Z_ENT`) of the objects whose value these columns hold.
            package var numbers: [Int64]
            /// ``CoreDataComposites/key(entity:attribute:)`` of the composite attribute.
            package var key: String
            /// The leaves, in the composite's flattened order (depth first): each a Core Data column read as its
            /// member's type, with the member's key path as `property` (`place.geo.lat`).
            package var leaves: [CoreDataMapping.Source]
            /// The key paths of the nested composites that are required members (`place.geo`): each must have a
            /// value wherever the composite around it has one.
            package var requiredComposites: [String] = []
        }

        package var target: String
        package var sources: [Source]
    }

    /// A leaf of a composite attribute: its key path from the entity (`place.geo.lat`), its own name (its Core Data
    /// column's name) and its member attribute.
    package struct CompositeLeaf: Sendable, Hashable {
        package var keyPath: String
        package var name: String
        package var attribute: Attribute
    }

    /// The key paths of the required members of a composite attribute that are composites themselves, outermost
    /// first (`place.geo`).
    package static func requiredComposites(of attribute: Attribute, in version: ModelVersion) -> [String] {
        var result: [String] = []
        func walk(_ attribute: Attribute, path: [String], depth: Int) {
            guard depth < ModelVersion.maximumCompositeDepth else { return }
            for member in version.members(of: attribute) where member.type == .composite {
                if !member.isOptional { result.append((path + [member.name]).joined(separator: ".")) }
                walk(member, path: path + [member.name], depth: depth + 1)
            }
        }
        walk(attribute, path: [attribute.name], depth: 0)
        return result
    }

    /// The leaves of a composite attribute in Core Data's flattened order: each member in the composite's order,
    /// a nested composite's leaves in its place.
    package static func leaves(of attribute: Attribute, in version: ModelVersion) -> [CompositeLeaf] {
        var result: [CompositeLeaf] = []
        func walk(_ attribute: Attribute, path: [String], depth: Int) {
            guard depth < ModelVersion.maximumCompositeDepth else { return }
            for member in version.members(of: attribute) {
                if member.type == .composite {
                    walk(member, path: path + [member.name], depth: depth + 1)
                } else {
                    result.append(
                        CompositeLeaf(
                            keyPath: (path + [member.name]).joined(separator: "."), name: member.name, attribute: member
                        ))
                }
            }
        }
        walk(attribute, path: [attribute.name], depth: 0)
        return result
    }
}

/// The SQL function the import builds composite values with, `remodel_core_data_composite(key, leaf…)`: the
/// leaves of one object (as Remodel stores values of their types) back into the composite's JSON object, NULL when
/// every leaf is NULL (a nil composite), a nested composite whose leaves are all NULL as `null`.
package final class CoreDataComposites: @unchecked Sendable {
    /// The SQL function's name.
    package static let function = "remodel_core_data_composite"

    private let version: ModelVersion

    package init(version: ModelVersion) {
        self.version = version
    }

    package static func key(entity: String, attribute: String) -> String { entity + "\u{1F}" + attribute }

    /// Registers the function on the connection the copy runs on.
    package func register(on connection: SQLiteConnection) throws(RemodelError) {
        try connection.createFunction(Self.function, argumentCount: -1) { [version] arguments in
            guard case .text(let key)? = arguments.first else { return .null }
            let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let entity = version.entity(named: parts[0]),
                let attribute = version.attribute(named: parts[1], in: entity)
            else { return .null }
            return Self.composite(attribute, in: version, leaves: arguments.dropFirst())
        }
    }

    /// The stored text of a composite from its leaves' stored values, in flattened order.
    static func composite(_ attribute: Attribute, in version: ModelVersion, leaves: ArraySlice<SQLiteValue>)
        -> SQLiteValue
    {
        var values = leaves.makeIterator()
        func object(_ attribute: Attribute, depth: Int) -> (text: String, empty: Bool) {
            var output = JSONOutput()
            var empty = true
            output.write("{")
            for (offset, member) in version.members(of: attribute).enumerated() {
                if offset > 0 { output.write(", ") }
                output.writeString(member.name)
                output.write(": ")
                if member.type == .composite {
                    guard depth < ModelVersion.maximumCompositeDepth else {
                        output.write("null")
                        continue
                    }
                    let nested = object(member, depth: depth + 1)
                    if nested.empty {
                        output.write("null")
                    } else {
                        output.write(bytes: Array(nested.text.utf8))
                        empty = false
                    }
                } else {
                    var value = values.next() ?? .null
                    if !value.isNull { empty = false }
                    // Core Data keeps a Decimal as a number; Remodel as its text (an attribute's column does that).
                    if member.type == .decimal {
                        if case .real(let real) = value { value = .text(real.description) }
                        if case .integer(let integer) = value { value = .text(String(integer)) }
                    }
                    AttributeCodec.writeJSON(value, type: member.type, to: &output)
                }
            }
            output.write("}")
            return (output.text, empty)
        }
        let (text, empty) = object(attribute, depth: 0)
        return empty ? .null : .text(text)
    }
}

/// The composite leaves a table's mapping finds, gathered into ``CoreDataMapping/CompositeColumn``s.
struct CompositeColumns {
    private struct Found {
        var entity: String
        var attribute: String
        var target: String
        var numbers: [Int64]
        var leaves: [CoreDataMapping.Source]
    }

    private var found: [Found] = []

    /// Records a leaf column of a composite attribute declared by `entity` (`leaf.property` is its key path).
    mutating func add(leaf: CoreDataMapping.Source, of entity: Entity, in layout: StoreLayout) {
        let attribute = String(leaf.property.prefix { $0 != "." })
        guard let target = layout.columnName(of: attribute, in: entity.name) else { return }
        if let index = found.firstIndex(where: { $0.entity == entity.name && $0.attribute == attribute }) {
            found[index].leaves.append(leaf)
        } else {
            found.append(
                Found(entity: entity.name, attribute: attribute, target: target, numbers: leaf.numbers, leaves: [leaf]))
        }
    }

    /// The composite columns, each composite's leaves in flattened order; a composite missing a leaf (the mapping
    /// noted the missing column) is left out.
    func columns(in version: ModelVersion) -> [CoreDataMapping.CompositeColumn] {
        var result: [CoreDataMapping.CompositeColumn] = []
        for composite in found {
            guard let entity = version.entity(named: composite.entity),
                let attribute = version.attribute(named: composite.attribute, in: entity)
            else { continue }
            let order = CoreDataMapping.leaves(of: attribute, in: version).map(\.keyPath)
            let byPath = Dictionary(composite.leaves.map { ($0.property, $0) }) { first, _ in first }
            let leaves = order.compactMap { byPath[$0] }
            guard leaves.count == order.count else { continue }
            let source = CoreDataMapping.CompositeColumn.Source(
                numbers: composite.numbers,
                key: CoreDataComposites.key(entity: composite.entity, attribute: composite.attribute), leaves: leaves,
                requiredComposites: CoreDataMapping.requiredComposites(of: attribute, in: version))
            if let index = result.firstIndex(where: { $0.target == composite.target }) {
                result[index].sources.append(source)
            } else {
                result.append(CoreDataMapping.CompositeColumn(target: composite.target, sources: [source]))
            }
        }
        return result
    }
}
