import Remodel

/// `NSCompositeAttributeDescription` (type 2100): an attribute whose `NSCompositeElements` are attribute
/// descriptions, composites among them (Core Data keeps their leaves in columns of their own; the compiled model
/// keeps the tree, not the name of the `<composite>` it was written with).
extension CompiledModelDecoder {
    func compositeAttribute(_ object: ArchivedObject, named key: String, in entity: String, depth: Int)
        throws(Failure) -> CompiledModel.Attribute
    {
        let what = "attribute \(entity).\(key)"
        guard depth < ModelVersion.maximumCompositeDepth else {
            throw Failure(message: "\(what) nests composites more than \(ModelVersion.maximumCompositeDepth) deep")
        }
        var attribute = try self.attribute(object, named: key, in: entity)
        guard attribute.type == .composite else {
            throw Failure(message: "\(what) is an NSCompositeAttributeDescription of type \(attribute.type.rawValue)")
        }
        attribute.compositeName = try string(object, "NSAttributeValueClassName").flatMap {
            $0.isEmpty || $0 == "NSDictionary" ? nil : $0
        }
        guard let elements = try value(object, "NSCompositeElements") else {
            throw Failure(message: "\(what) is a composite without NSCompositeElements")
        }
        var names: Set<String> = []
        for element in try self.elements(elements, what: "\(what)'s NSCompositeElements") {
            guard case .object(let description) = element else {
                throw Failure(message: "\(what) has an element that is not an attribute description")
            }
            let name = try string(description, "NSPropertyName") ?? ""
            guard !name.isEmpty, names.insert(name).inserted else {
                throw Failure(message: "\(what) has an element without a name, or two of one name")
            }
            switch description.className {
            case "NSAttributeDescription":
                attribute.elements.append(try self.attribute(description, named: name, in: "\(entity).\(key)"))
            case "NSCompositeAttributeDescription":
                attribute.elements.append(
                    try compositeAttribute(description, named: name, in: "\(entity).\(key)", depth: depth + 1))
            default:
                throw Failure(
                    message: "\(what)'s element \(name) is an \(description.className), which a composite does not hold"
                )
            }
        }
        return attribute
    }
}

extension CompiledModel {
    /// Gives every composite attribute (nested ones too) the name of a `<composite>` and lists the composites: the
    /// class name the archive gives it, else its attribute's name with a capital; composites with one name and the
    /// same elements share it, others of a name taken get a number (`Place2`).
    mutating func nameComposites() {
        var named: [Composite] = []
        func name(_ attribute: inout Attribute) {
            guard attribute.type == .composite else { return }
            for index in attribute.elements.indices { name(&attribute.elements[index]) }
            let wanted = attribute.compositeName ?? (attribute.name.prefix(1).uppercased() + attribute.name.dropFirst())
            var candidate = wanted
            var number = 2
            while let known = named.first(where: { $0.name == candidate }) {
                if known.elements == attribute.elements { break }
                candidate = "\(wanted)\(number)"
                number += 1
            }
            attribute.compositeName = candidate
            if !named.contains(where: { $0.name == candidate }) {
                named.append(Composite(name: candidate, elements: attribute.elements))
            }
        }
        for entity in entities.indices {
            for index in entities[entity].attributes.indices { name(&entities[entity].attributes[index]) }
        }
        composites = named.sorted { $0.name < $1.name }
    }
}
