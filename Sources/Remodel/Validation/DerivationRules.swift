/// Rules about derived attributes (`derived="YES" derivationExpression="…"`): the expression is read as Core Data
/// reads it and resolved against its entity, since the store computes the value (docs/MODELS.md, "Derived
/// attributes"). The rules read other entities (a key path's destinations), so they run on every entity.
enum DerivationRules {
    static func check(_ version: ModelVersion, into list: inout DiagnosticList) {
        for entity in version.entities {
            for attribute in entity.attributes where attribute.isDerived || attribute.derivationExpression != nil {
                check(attribute, of: entity, in: version, into: &list)
            }
        }
    }

    private static func check(
        _ attribute: Attribute, of entity: Entity, in version: ModelVersion, into list: inout DiagnosticList
    ) {
        let name = "\(entity.name).\(attribute.name)"
        let expression = attribute.derivationExpression ?? ""
        guard attribute.isDerived else {
            list.report(
                .derivationIgnored,
                "\(name) has a derivationExpression but is not derived, so it is a plain attribute and the expression is ignored; tick Derived in Xcode (derived=\"YES\") or remove the expression",
                at: attribute.source.location(of: "derivationExpression"))
            return
        }
        if attribute.isTransient {
            list.report(
                .derivationIgnored,
                "\(name) is derived and transient: it has no storage, so the store computes nothing; untick Transient to keep it in the store",
                at: attribute.source.location(of: "transient"))
            return
        }
        guard !expression.allSatisfy(\.isWhitespace) else {
            list.report(
                .derivationMissing,
                "\(name) is derived but has no derivationExpression, so the store cannot compute it; give one (such as books.@count) or untick Derived",
                at: attribute.source.location(of: "derived"))
            return
        }
        if attribute.defaultValue != nil {
            list.report(
                .derivationIgnored,
                "\(name) is derived, so its default value is never used: the store computes every value",
                at: attribute.source.location(
                    of: attribute.type == .date ? "defaultDateTimeInterval" : "defaultValueString"))
        }
        let derivation: Derivation
        let offsets: [Int]
        do {
            (derivation, offsets) = try Derivation.parse(expression)
        } catch {
            list.report(
                error.isUnsupported ? .derivationUnsupported : .derivationSyntax,
                "\(name): \(error.message)", at: location(in: attribute, offset: error.offset))
            return
        }
        if case .failure(let problem) = version.resolve(derivation, of: attribute, in: entity) {
            let offset = problem.key.flatMap { $0 < offsets.count ? offsets[$0] : nil } ?? 0
            list.report(
                problem.isUnsupported ? .derivationUnsupported : .derivationInvalid,
                "\(name) = \(derivation.text): \(problem.message)", at: location(in: attribute, offset: offset))
        }
    }

    /// The position of the character `offset` (in Unicode scalars) of the attribute's `derivationExpression`: the
    /// value's start, and the characters before it as Xcode writes them (`&`, `<`, `>` and `"` as references).
    private static func location(in attribute: Attribute, offset: Int) -> SourceLocation {
        var location = attribute.source.location(of: "derivationExpression")
        for scalar in (attribute.derivationExpression ?? "").unicodeScalars.prefix(offset) {
            switch scalar {
            case "&": location.column += 5
            case "<", ">": location.column += 4
            case "\"": location.column += 6
            default: location.column += 1
            }
        }
        return location
    }
}
