/// Composite attributes resolved against their version: members, member key paths and whether two versions
/// store a composite alike (docs/STORE-LAYOUT.md, "Composite attributes").
extension ModelVersion {
    /// How deep composites may nest: `validate` refuses a deeper chain (and any cycle) as `composite-cycle`, and
    /// everything that walks members stops here, so a model that skipped validation cannot recurse forever.
    package static let maximumCompositeDepth = 16

    /// The stored members of a Composite attribute (or of a composite member), in the composite's order; empty
    /// when the attribute is not a composite or names none this version defines.
    package func members(of attribute: Attribute) -> [Attribute] {
        guard attribute.type == .composite, let composite = attribute.compositeName.flatMap(composite(named:)) else {
            return []
        }
        return composite.attributes.filter(\.isStored)
    }

    /// The member a key path names inside a composite attribute (`["geo", "lat"]` inside `place`), or nil.
    package func member(at path: some Collection<String>, of attribute: Attribute) -> Attribute? {
        var current = attribute
        for (depth, name) in path.enumerated() {
            guard depth < Self.maximumCompositeDepth, let next = members(of: current).first(where: { $0.name == name })
            else { return nil }
            current = next
        }
        return current
    }

    /// A property key path an index or uniqueness constraint may name: an attribute or relationship, or a member
    /// of a composite attribute written `attribute.member` (`place.city`, `place.geo.lat`). `member` is empty for
    /// a plain property.
    package func compositeMember(named keyPath: String, in entity: Entity) -> (attribute: Attribute, member: [String])?
    {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, let attribute = attribute(named: parts[0], in: entity), attribute.isStored,
            member(at: parts.dropFirst(), of: attribute) != nil
        else { return nil }
        return (attribute, Array(parts.dropFirst()))
    }

    /// The chain of composites `composite` reaches through its members that leads back to itself or nests deeper
    /// than ``maximumCompositeDepth``, for `validate`; nil when there is none.
    func compositeCycle(from composite: Composite) -> [String]? {
        var chain = [composite.name]
        func walk(_ current: Composite) -> Bool {
            for member in current.attributes where member.type == .composite {
                guard let name = member.compositeName, let next = self.composite(named: name) else { continue }
                if chain.contains(name) || chain.count >= Self.maximumCompositeDepth {
                    chain.append(name)
                    return true
                }
                chain.append(name)
                if walk(next) { return true }
                chain.removeLast()
            }
            return false
        }
        return walk(composite) ? chain : nil
    }

    /// Whether a Composite attribute of this version and one of `other` are stored and checked alike: the same
    /// members, in the same order, each defined the same (but for where it is written), nested ones too. Two
    /// composites of different names with the same members are alike. Not composites: true.
    package func hasSameComposite(_ attribute: Attribute, as otherAttribute: Attribute, in other: ModelVersion) -> Bool
    {
        func same(_ mine: Attribute, _ theirs: Attribute, depth: Int) -> Bool {
            guard mine.type == .composite || theirs.type == .composite else { return true }
            guard mine.type == theirs.type, depth < Self.maximumCompositeDepth else { return false }
            let a = members(of: mine)
            let b = other.members(of: theirs)
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) {
                var (blankX, blankY) = (x, y)
                blankX.source = .synthetic
                blankY.source = .synthetic
                blankX.compositeName = nil
                blankY.compositeName = nil
                guard blankX == blankY, same(x, y, depth: depth + 1) else { return false }
            }
            return true
        }
        return same(attribute, otherAttribute, depth: 0)
    }

    /// Whether every Composite attribute `entity` declares is stored alike in `other`'s `otherEntity`
    /// (``hasSameComposite(_:as:in:)``), by name. Entities without composites answer at once.
    func hasSameComposites(of entity: Entity, as otherEntity: Entity, in other: ModelVersion) -> Bool {
        for attribute in entity.attributes where attribute.type == .composite {
            guard let theirs = otherEntity.attribute(named: attribute.name),
                hasSameComposite(attribute, as: theirs, in: other)
            else { return false }
        }
        return true
    }

    /// Whether a Composite attribute of this version and one of `other` store their values in the same form: the
    /// same member names and types in the same order, nested ones too (bounds, defaults and optionality may
    /// differ: they change the checks, not the stored text). Then a value is carried as it is; otherwise it is
    /// reshaped (``CompositeReshape``). Not composites: true.
    package func hasSameCompositeShape(_ attribute: Attribute, as otherAttribute: Attribute, in other: ModelVersion)
        -> Bool
    {
        func same(_ mine: Attribute, _ theirs: Attribute, depth: Int) -> Bool {
            guard mine.type == .composite || theirs.type == .composite else { return true }
            guard mine.type == theirs.type, depth < Self.maximumCompositeDepth else { return false }
            let a = members(of: mine)
            let b = other.members(of: theirs)
            guard a.count == b.count else { return false }
            return zip(a, b).allSatisfy { x, y in
                x.name == y.name && x.type == y.type && same(x, y, depth: depth + 1)
            }
        }
        return same(attribute, otherAttribute, depth: 0)
    }
}
