/// Rules about names: identifiers, reserved names, duplicates, clashes and Xcode's conventions.
enum NameRules {
    static func check(_ version: ModelVersion, into list: inout DiagnosticList, scope: inout EntityScope) {
        var seenEntities: [String: String] = [:]
        for (position, entity) in version.entities.enumerated() {
            // Where the name is and how a message names it are worked out only for a message: a long history's versions
            // are all checked, and nearly every name passes.
            func location() -> SourceLocation { entity.source.location(of: "name") }
            if checkName(
                entity.name, described: "entity '\(entity.name)'", isEntity: true, at: location(), into: &list),
                list.keepsWarnings, let first = entity.name.first, !first.isUppercase
            {
                list.report(
                    .entityNameCase,
                    "entity '\(entity.name)' should start with an uppercase letter, as Xcode expects; rename it to '\(capitalized(entity.name))'",
                    at: location())
            }
            // Swift's `String` takes canonically equivalent spellings for one; a name is its scalars (SQLName).
            if !entity.name.isEmpty, let earlier = seenEntities[entity.name] {
                if SQLName.identical(earlier, entity.name) {
                    list.report(
                        .duplicateEntity,
                        "entity '\(entity.name)' is defined twice in version '\(version.name)'; rename or remove one of them",
                        at: location())
                } else {
                    list.report(
                        .equivalentNames,
                        "entity '\(entity.name)' and entity '\(earlier)' of version '\(version.name)' \(lookAlike(entity.name, earlier))",
                        at: location())
                }
            } else if !entity.name.isEmpty {
                seenEntities[entity.name] = entity.name
            }
            scope.check(position, &list) { checkProperties(of: entity, in: version, into: &$0) }
        }
    }

    /// Reports an invalid or reserved name; returns whether the name is a usable identifier.
    private static func checkName(
        _ name: String, described describe: @autoclosure () -> String, isEntity: Bool,
        at locate: @autoclosure () -> SourceLocation, into list: inout DiagnosticList
    ) -> Bool {
        // By bytes, as SQLite reads names: `_` and U+0301 starts with `_`, and `SQLITE_x` with `sqlite_`.
        let reserved = name.utf8.first == UInt8(ascii: "_")
        let sqliteReserved = isEntity && SQLName.hasPrefix(name, "sqlite_")
        if !name.isEmpty, !reserved, !sqliteReserved, isIdentifier(name) {
            return true
        }
        let described = describe()
        let location = locate()
        guard !name.isEmpty else {
            list.report(.invalidName, "\(isEntity ? "an entity" : described) has no name; give it one", at: location)
            return false
        }
        guard isIdentifier(name) else {
            list.report(
                .invalidName,
                "\(described) is not a valid name; use only letters, digits and underscores, and do not start with a digit",
                at: location)
            return false
        }
        if reserved {
            let why =
                name == StoreColumn.pk || name == StoreColumn.entity
                ? "the store uses '\(name)' for its own column"
                : "names starting with '_' are reserved for the store's own columns and tables"
            list.report(.reservedName, "\(described) has a reserved name: \(why); rename it", at: location)
            return false
        }
        if sqliteReserved {
            list.report(
                .reservedName,
                "\(described) has a reserved name: SQLite reserves table names starting with 'sqlite_'; rename it",
                at: location)
            return false
        }
        return true
    }

    private static func checkProperties(of entity: Entity, in version: ModelVersion, into list: inout DiagnosticList) {
        let inherited = version.ancestors(of: entity).map { ($0, PropertyReference.declared(by: $0)) }
        let declared = PropertyReference.declared(by: entity)
        var earlier: [String: PropertyReference] = [:]
        earlier.reserveCapacity(declared.count)
        for property in declared {
            func described() -> String { "\(property.kind.rawValue) '\(entity.name).\(property.name)'" }
            if checkName(
                property.name, described: described(), isEntity: false, at: property.nameLocation, into: &list),
                list.keepsWarnings, let first = property.name.first, !first.isLowercase
            {
                list.report(
                    .propertyNameCase,
                    "\(described()) should start with a lowercase letter, as Xcode expects; rename it to '\(lowercasedFirst(property.name))'",
                    at: property.nameLocation)
            }
            guard !property.name.isEmpty else { continue }
            if let previous = earlier[property.name], !SQLName.identical(previous.name, property.name) {
                list.report(
                    .equivalentNames,
                    "\(described()) and \(previous.kind.rawValue) '\(entity.name).\(previous.name)' \(lookAlike(property.name, previous.name))",
                    at: property.nameLocation)
                continue
            }
            if let previous = earlier[property.name] {
                if previous.kind == property.kind {
                    list.report(
                        .duplicateProperty,
                        "entity '\(entity.name)' declares \(property.kind.rawValue) '\(property.name)' twice; remove or rename one of them",
                        at: property.nameLocation)
                } else {
                    list.report(
                        .propertyNameClash,
                        "\(described()) has the same name as \(previous.kind.rawValue) '\(entity.name).\(previous.name)'; rename one of them",
                        at: property.nameLocation)
                }
                continue
            }
            earlier[property.name] = property
            for (ancestor, properties) in inherited {
                guard let parentProperty = properties.first(where: { $0.name == property.name }) else { continue }
                if !SQLName.identical(parentProperty.name, property.name) {
                    list.report(
                        .equivalentNames,
                        "\(described()) and \(parentProperty.kind.rawValue) '\(ancestor.name).\(parentProperty.name)', which '\(entity.name)' inherits, \(lookAlike(property.name, parentProperty.name))",
                        at: property.nameLocation)
                } else if parentProperty.kind == property.kind {
                    list.report(
                        .duplicateProperty,
                        "\(described()) redefines \(parentProperty.kind.rawValue) '\(property.name)' that '\(entity.name)' inherits from '\(ancestor.name)'; remove it from '\(entity.name)' or rename it",
                        at: property.nameLocation)
                } else {
                    list.report(
                        .propertyNameClash,
                        "\(described()) has the same name as \(parentProperty.kind.rawValue) '\(ancestor.name).\(property.name)', which '\(entity.name)' inherits; rename one of them",
                        at: property.nameLocation)
                }
                break
            }
        }
    }

    /// Letters, combining marks, digits and `_`, starting with a letter or `_`: the one definition
    /// (``SQLName/isIdentifier(_:)``), which expressions and mapping files read names by too.
    static func isIdentifier(_ name: String) -> Bool { SQLName.isIdentifier(name) }

    /// What to say of two names Swift's `String` takes for one and Core Data and SQLite keep apart.
    private static func lookAlike(_ name: String, _ other: String) -> String {
        let spell = { (text: String) in
            text.unicodeScalars.map { $0.isASCII ? String($0) : "U+\(String($0.value, radix: 16, uppercase: true))" }
                .joined(separator: " ")
        }
        return
            "are two names that look alike (\(spell(name)) and \(spell(other))): Core Data and SQLite keep them apart, but a model that has both is one Remodel cannot read without mixing them up; rename one of them"
    }

    private static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    private static func lowercasedFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }
}
