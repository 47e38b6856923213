extension ExpressionTypeChecker {
    /// Resolves `$source.a.b.c` or `$source.a.b.@count` through to-one relationships.
    func keyPath(_ path: Expression.KeyPath) throws(ExpressionDiagnostic) -> Typed {
        var current = entity
        var through: [String] = []
        for (position, component) in path.components.enumerated() {
            let isLast = position == path.components.count - 1
            let name = component.name, range = component.range
            if let attribute = model.attribute(named: name, in: current) {
                guard isLast else {
                    throw .type(
                        "'\(name)' is an attribute of \(current.name), not a relationship; only to-one relationships can be followed",
                        at: range)
                }
                if path.count != nil {
                    throw .type(
                        "'\(name)' is an attribute of \(current.name); '@count' needs a to-many relationship", at: range
                    )
                }
                guard !attribute.isTransient else {
                    throw .type(
                        "attribute '\(name)' of \(current.name) is transient and has no stored value", at: range)
                }
                guard let valueType = ExpressionType(attribute.type) else {
                    throw .type(
                        "attribute '\(name)' of \(current.name) has type \(attribute.typeName ?? attribute.type.rawValue), which expressions cannot read",
                        at: range)
                }
                return Typed(
                    .attribute(name, path: through), valueType, optional: attribute.isOptional || !through.isEmpty)
            }
            guard let relationship = model.relationship(named: name, in: current) else {
                let candidates: [String]
                let kind: String
                if isLast && path.count == nil {
                    candidates =
                        model.attributes(of: current).map(\.name) + model.relationships(of: current).map(\.name)
                    kind = "attribute"
                } else {
                    candidates = model.relationships(of: current).map(\.name)
                    kind = "relationship"
                }
                let suggestion = closestName(to: name, in: candidates)
                throw .type(
                    "\(current.name) has no \(kind) '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
                    at: range)
            }
            if isLast {
                if path.count != nil {
                    guard relationship.isToMany else {
                        throw .type(
                            "'\(name)' is a to-one relationship of \(current.name); '@count' needs a to-many relationship",
                            at: range)
                    }
                    return Typed(.count(name, path: through), .integer, optional: !through.isEmpty)
                }
                if relationship.isToMany {
                    throw .type(
                        "'\(name)' is a to-many relationship of \(current.name) and has no single value; count it with '$source.\((through + [name]).joined(separator: ".")).@count'",
                        at: range)
                }
                let example = destination(of: relationship, in: current).flatMap {
                    model.attributes(of: $0).first?.name
                }
                throw .type(
                    "'\(name)' is a relationship of \(current.name), not an attribute"
                        + (example.map {
                            "; name an attribute of its destination: '$source.\((through + [name, $0]).joined(separator: "."))'"
                        } ?? ""),
                    at: range)
            }
            if relationship.isToMany {
                throw .type(
                    "'\(name)' is a to-many relationship of \(current.name); only to-one relationships can be followed",
                    at: range)
            }
            guard let next = destination(of: relationship, in: current) else {
                throw .type(
                    "relationship '\(name)' of \(current.name) has no destination entity '\(relationship.destinationEntity ?? "")'",
                    at: range)
            }
            through.append(name)
            current = next
        }
        // The parser never makes an empty path; report it rather than crash.
        throw .type("expected an attribute name after '$source'", at: 0..<0)
    }

    private func destination(of relationship: Relationship, in entity: Entity) -> Entity? {
        relationship.destinationEntity.flatMap { model.entity(named: $0) }
    }
}
