import Foundation

/// Version hashes: a fingerprint of each entity's storage, used to recognise a
/// store's version even when versions are renamed.
///
/// The recipe (stable across runs and machines; see `docs/MODELS.md`):
/// SHA-256, as lowercase hex, of the UTF-8 text made of these lines, each
/// field quoted with `"` (`"` and `\` escaped by `\`), lines joined by `\n`:
///
/// ```
/// entity "Name"
/// parent "<parent's hash, or empty>"
/// abstract 0|1
/// modifier "<versionHashModifier, or empty>"
/// attribute "name" "Type" optional 0|1 modifier "…"            (one per stored attribute, sorted by name;
///                                                               a derived one ends ` derived "<expression>"`,
///                                                               the expression as Remodel writes it)
/// relationship "name" "Destination" "inverse" tomany 0|1 ordered 0|1 optional 0|1 min N max N modifier "…"
/// ```
///
/// Class names, user info, defaults, validation bounds, renaming identifiers,
/// indexes and transient properties are left out: they do not change storage.
extension ModelVersion {
    /// The version hash of every entity, by entity name, computed (``entityHashes`` keeps it).
    func computeEntityHashes() -> [String: String] {
        var hashes: [String: String] = [:]
        for entity in entities {
            hashes[entity.name] = versionHash(of: entity)
        }
        return hashes
    }

    /// One hash for the whole version: SHA-256 over the sorted `name=hash` lines of ``entityHashes``.
    public var modelHash: String {
        let lines = entityHashes.sorted { $0.key < $1.key }.map { "\(quoted($0.key))=\($0.value)" }
        return sha256Hex(lines.joined(separator: "\n"))
    }

    /// The version hash of one entity, following the documented recipe.
    public func versionHash(of entity: Entity) -> String {
        sha256Hex(canonicalDescription(of: entity))
    }

    /// The canonical text that ``versionHash(of:)`` hashes.
    public func canonicalDescription(of entity: Entity) -> String {
        canonicalDescription(of: entity, visiting: [])
    }

    private func canonicalDescription(of entity: Entity, visiting: Set<String>) -> String {
        var lines: [String] = []
        lines.append("entity \(quoted(entity.name))")
        var parentHash = ""
        if let parent = parent(of: entity), !visiting.contains(parent.name) {
            parentHash = sha256Hex(canonicalDescription(of: parent, visiting: visiting.union([entity.name])))
        }
        lines.append("parent \(quoted(parentHash))")
        lines.append("abstract \(flag(entity.isAbstract))")
        lines.append("modifier \(quoted(entity.versionHashModifier ?? ""))")
        for attribute in entity.attributes.filter(\.isStored).sorted(by: { $0.name < $1.name }) {
            var line =
                "attribute \(quoted(attribute.name)) \(quoted(attribute.type.rawValue)) optional \(flag(attribute.isOptional)) modifier \(quoted(attribute.versionHashModifier ?? ""))"
            // What the store computes is part of what it holds; left out for every other attribute, so no hash of a
            // model without derived attributes changes.
            if attribute.isDerived { line += " derived \(quoted(Self.hashedDerivation(of: attribute)))" }
            lines.append(line)
        }
        for relationship in entity.relationships.filter({ !$0.isTransient }).sorted(by: { $0.name < $1.name }) {
            let minimum = relationship.minCount.map(String.init) ?? ""
            let maximum = relationship.maxCount.map(String.init) ?? ""
            lines.append(
                "relationship \(quoted(relationship.name)) \(quoted(relationship.destinationEntity ?? "")) \(quoted(relationship.inverseName ?? "")) tomany \(flag(relationship.isToMany)) ordered \(flag(relationship.isOrdered)) optional \(flag(relationship.isOptional)) min \(quoted(minimum)) max \(quoted(maximum)) modifier \(quoted(relationship.versionHashModifier ?? ""))"
            )
        }
        return lines.joined(separator: "\n")
    }
}

extension ModelVersion {
    /// A derived attribute's expression as the hash reads it: as Remodel writes it when it parses (so spacing does
    /// not change the hash), else as written.
    fileprivate static func hashedDerivation(of attribute: Attribute) -> String {
        let text = attribute.derivationExpression ?? ""
        return (try? Derivation(parsing: text))?.text ?? text
    }
}

private func flag(_ value: Bool) -> String { value ? "1" : "0" }

private func quoted(_ text: String) -> String {
    // Names seldom hold a quote or a backslash: escaping only when one is there keeps hashing a large model cheap.
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) else {
        return "\"" + text + "\""
    }
    return "\"" + text.replacingCharacter("\\", with: "\\\\").replacingCharacter("\"", with: "\\\"") + "\""
}

func sha256Hex(_ text: String) -> String {
    SHA256.hexDigest(text.utf8)
}
