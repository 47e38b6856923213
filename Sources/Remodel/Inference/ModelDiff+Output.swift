extension ModelDiff {
    /// The diff for people: one block per changed entity, one line per changed property, then the lint.
    public var text: String {
        var lines = ["\(from) → \(to)"]
        for entity in entities where entity.change != .unchanged {
            let renamed = entity.sourceName.map { " (renamed from \($0))" } ?? ""
            lines.append("  \(symbol(entity.change)) \(entity.name)\(renamed): \(entity.migration.rawValue)")
            for property in entity.properties {
                let details = property.details.isEmpty ? "" : " (\(property.details.joined(separator: ", ")))"
                lines.append("      \(symbol(property.change)) \(property.name)\(details): \(property.migration)")
            }
        }
        let unchanged = entities.filter { $0.change == .unchanged }.map(\.name)
        if !unchanged.isEmpty {
            lines.append("  = unchanged: \(unchanged.joined(separator: ", "))")
        }
        if !lints.isEmpty {
            lines.append("")
            lines += lints.map(\.description)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func symbol(_ change: Change) -> String {
        switch change {
        case .added: return "+"
        case .removed: return "-"
        case .changed: return "~"
        case .unchanged: return "="
        }
    }

    /// The diff as JSON for other programs (keys sorted, stable).
    public var json: String {
        JSONDocument.object(jsonMembers).rendered() + "\n"
    }

    /// The members of ``json``'s object, keys sorted: `entities`, `from`, `lints`, `to`.
    package var jsonMembers: [(String, JSONDocument)] {
        let entities = entities.map { entity -> JSONDocument in
            var members: [(String, JSONDocument)] = [
                ("change", .string(entity.change.rawValue)), ("migration", .string(entity.migration.rawValue)),
                ("name", .string(entity.name)),
                (
                    "properties",
                    .array(
                        entity.properties.map { property in
                            .object([
                                ("change", .string(property.change.rawValue)),
                                ("details", .array(property.details.map(JSONDocument.string))),
                                ("migration", .string(property.migration)), ("name", .string(property.name)),
                            ])
                        })
                ),
            ]
            if let source = entity.sourceName { members.append(("renamedFrom", .string(source))) }
            return .object(members)
        }
        let lints = lints.map { lint -> JSONDocument in
            var members: [(String, JSONDocument)] = [
                ("entity", .string(lint.entity)), ("message", .string(lint.message)),
            ]
            if let property = lint.property { members.append(("property", .string(property))) }
            members += [("rule", .string(lint.rule)), ("severity", .string(lint.severity.rawValue))]
            return .object(members)
        }
        return [("entities", .array(entities)), ("from", .string(from)), ("lints", .array(lints)), ("to", .string(to))]
    }
}
