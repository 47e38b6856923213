import Foundation

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
        let object: [String: Any] = [
            "from": from,
            "to": to,
            "entities": entities.map { entity -> [String: Any] in
                var value: [String: Any] = [
                    "name": entity.name, "change": entity.change.rawValue, "migration": entity.migration.rawValue,
                    "properties": entity.properties.map { property -> [String: Any] in
                        [
                            "name": property.name, "change": property.change.rawValue, "details": property.details,
                            "migration": property.migration,
                        ]
                    },
                ]
                if let source = entity.sourceName { value["renamedFrom"] = source }
                return value
            },
            "lints": lints.map { lint -> [String: Any] in
                var value: [String: Any] = [
                    "rule": lint.rule, "severity": lint.severity.rawValue, "entity": lint.entity,
                    "message": lint.message,
                ]
                if let property = lint.property { value["property"] = property }
                return value
            },
        ]
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
