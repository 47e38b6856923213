/// Rules about attribute types: known types, composites and value transformers.
enum AttributeRules {
    static func check(_ version: ModelVersion, into list: inout DiagnosticList) {
        // The names a message would join are taken out first: an autoclosure holding the entity itself copies it
        // (every field retained) for each attribute.
        for entity in version.entities {
            let owner = entity.name
            for attribute in entity.attributes {
                let member = attribute.name
                check(attribute, named: "\(owner).\(member)", in: version, into: &list)
            }
        }
        for composite in version.composites {
            let owner = composite.name
            for attribute in composite.attributes {
                let member = attribute.name
                check(attribute, named: "\(owner).\(member)", in: version, into: &list)
            }
            CompositeRules.check(composite, in: version, into: &list)
        }
    }

    // The attribute's name for a message (`Entity.attribute`) and where its type is written are worked out only
    // for a message: nearly every attribute passes.
    private static func check(
        _ attribute: Attribute, named name: @autoclosure () -> String, in version: ModelVersion,
        into list: inout DiagnosticList
    ) {
        let typeName = attribute.typeName ?? ""
        func location() -> SourceLocation { attribute.source.location(of: "attributeType") }
        if typeName.isEmpty {
            if !attribute.isTransient {
                list.report(
                    .unknownAttributeType,
                    "attribute '\(name())' has no type; set attributeType to one of \(knownTypes)",
                    at: location())
            }
            return
        }
        // The type the reader parsed from the same text, or parsed now (an attribute made in code may differ).
        let parsed = typeName == attribute.type.rawValue ? attribute.type : AttributeType(rawValue: typeName)
        guard let type = parsed else {
            list.report(
                .unknownAttributeType,
                "attribute '\(name())' has type '\(typeName)', which is not a Core Data attribute type; use one of \(knownTypes)",
                at: location())
            return
        }
        if type == .undefined, !attribute.isTransient {
            list.report(
                .unknownAttributeType,
                "attribute '\(name())' has type Undefined, which only a transient attribute may have; choose a type or make it transient",
                at: location())
        }
        if type == .transformable, !attribute.isTransient, (attribute.valueTransformerName ?? "").isEmpty {
            list.report(
                .transformableWithoutTransformer,
                "Transformable attribute '\(name())' names no value transformer, so values are archived insecurely; set valueTransformerName (for example NSSecureUnarchiveFromData)",
                at: attribute.source.location)
        }
        checkComposite(attribute, named: name(), in: version, into: &list)
    }

    private static func checkComposite(
        _ attribute: Attribute, named name: @autoclosure () -> String, in version: ModelVersion,
        into list: inout DiagnosticList
    ) {
        guard attribute.type == .composite else { return }
        guard let compositeName = attribute.compositeName, !compositeName.isEmpty else {
            list.report(
                .unknownComposite,
                "Composite attribute '\(name())' names no composite; choose one in Xcode or set composite",
                at: attribute.source.location)
            return
        }
        if version.composite(named: compositeName) == nil {
            list.report(
                .unknownComposite,
                "Composite attribute '\(name())' names composite '\(compositeName)', which this version does not define; add the composite or choose another one",
                at: attribute.source.location(of: "composite"))
        }
    }

    /// The type names Xcode offers, for messages.
    static let knownTypes = AttributeType.allCases.filter { $0 != .undefined }.map(\.rawValue).joined(separator: ", ")
}
