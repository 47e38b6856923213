/// A derivation read against its entity: the relationships its key path follows and the attribute it reads,
/// each found in the version (``ModelVersion/resolve(_:of:in:)``).
package struct ResolvedDerivation: Sendable, Hashable {
    /// One relationship the key path follows.
    package struct Hop: Sendable, Hashable {
        /// The entity whose object the relationship leaves (the owner, or the destination of the hop before).
        package var entity: String
        /// The relationship's name.
        package var relationship: String
        /// Its destination entity.
        package var destination: String
    }

    /// The attribute a derivation reads at the end of its path.
    package struct Read: Sendable, Hashable {
        /// The entity it is read on (the last hop's destination, or the owner).
        package var entity: String
        /// The attribute's name.
        package var name: String
        /// Its type.
        package var type: AttributeType
    }

    /// The derivation.
    package var derivation: Derivation
    /// The to-one relationships followed from the owner, in order.
    package var toOnes: [Hop] = []
    /// The to-many relationship an aggregate runs over, after the to-ones.
    package var toMany: Hop?
    /// The attribute read (nil for `@count` and `now()`).
    package var read: Read?

    /// Whether the value reads the object's own row only: a key path to one of its attributes, or a function of
    /// one. The store computes such a value as a generated column; every other one is kept by triggers.
    package var readsOwnRowOnly: Bool {
        switch derivation.form {
        case .keyPath, .function: return toOnes.isEmpty
        case .aggregate, .now: return false
        }
    }
}

/// Why a derivation cannot be computed for its attribute.
package struct DerivationProblem: Error, Sendable, Hashable {
    /// What is wrong, in a sentence.
    package var message: String
    /// The index in ``Derivation/keys`` of the name at fault, when one is.
    package var key: Int?
    /// Whether Core Data would compute it but Remodel does not (rather than a mistake in the model).
    package var isUnsupported = false
}

extension ModelVersion {
    /// Reads `derivation` against the entity that declares `attribute`: every name of its key path must be found,
    /// to-one relationships then (for an aggregate) one to-many, ending at a stored attribute whose type gives the
    /// derived attribute's own.
    package func resolve(_ derivation: Derivation, of attribute: Attribute, in entity: Entity)
        -> Result<ResolvedDerivation, DerivationProblem>
    {
        var resolved = ResolvedDerivation(derivation: derivation)
        let owner = "\(entity.name).\(attribute.name)"
        var current = entity
        let keys = derivation.keys
        let (relationshipCount, endsAtAttribute): (Int, Bool)
        switch derivation.form {
        case .now:
            guard attribute.type == .date else {
                return .failure(
                    DerivationProblem(
                        message: "now() gives a Date, but \(owner) is \(attribute.type.rawValue); make it a Date"))
            }
            return .success(resolved)
        case .keyPath(let path), .function(_, let path): (relationshipCount, endsAtAttribute) = (path.count - 1, true)
        case .aggregate(_, let path, let read): (relationshipCount, endsAtAttribute) = (path.count, read != nil)
        }
        for (index, key) in keys.prefix(relationshipCount).enumerated() {
            let isLast = index == relationshipCount - 1
            guard let relationship = relationship(named: key, in: current) else {
                let what = attributeExists(key, in: current) ? "an attribute, not a relationship" : "nothing"
                return .failure(
                    DerivationProblem(
                        message:
                            "'\(key)' of \(current.name) is \(what): a derivation's key path follows relationships to an attribute",
                        key: index))
            }
            guard !relationship.isTransient else {
                return .failure(
                    DerivationProblem(
                        message: "'\(key)' of \(current.name) is transient: the store keeps nothing to derive from",
                        key: index))
            }
            guard let destinationName = relationship.destinationEntity,
                let destination = self.entity(named: destinationName)
            else {
                return .failure(
                    DerivationProblem(message: "'\(key)' of \(current.name) has no destination entity", key: index))
            }
            let hop = ResolvedDerivation.Hop(entity: current.name, relationship: key, destination: destinationName)
            let wantsToMany: Bool
            if case .aggregate = derivation.form { wantsToMany = isLast } else { wantsToMany = false }
            if relationship.isToMany != wantsToMany {
                let message =
                    relationship.isToMany
                    ? "'\(key)' of \(current.name) is a to-many relationship: a key path goes through to-one relationships; aggregate over it instead (\(key).@count, \(key).….@sum)"
                    : "'\(key)' of \(current.name) is a to-one relationship: an aggregate runs over a to-many one"
                return .failure(DerivationProblem(message: message, key: index))
            }
            if wantsToMany { resolved.toMany = hop } else { resolved.toOnes.append(hop) }
            current = destination
        }
        if endsAtAttribute {
            let index = keys.count - 1
            let key = keys[index]
            guard let read = self.attribute(named: key, in: current) else {
                let what =
                    relationship(named: key, in: current) != nil
                    ? "a relationship: a derivation ends at an attribute (name one of its destination's, such as \(key).name)"
                    : "nothing: \(current.name) has no attribute of that name"
                return .failure(DerivationProblem(message: "'\(key)' of \(current.name) is \(what)", key: index))
            }
            if let problem = readProblem(read, named: key, on: current, key: index) { return .failure(problem) }
            resolved.read = ResolvedDerivation.Read(entity: current.name, name: key, type: read.type)
        }
        if let problem = typeProblem(of: resolved, into: attribute, owner: owner) { return .failure(problem) }
        return .success(resolved)
    }

    private func attributeExists(_ name: String, in entity: Entity) -> Bool {
        attribute(named: name, in: entity) != nil
    }

    /// Why an attribute cannot be read by a derivation, or nil.
    private func readProblem(_ read: Attribute, named key: String, on entity: Entity, key index: Int)
        -> DerivationProblem?
    {
        if read.isTransient || !read.isStored {
            return DerivationProblem(
                message: "'\(key)' of \(entity.name) is transient: the store keeps nothing to derive from", key: index)
        }
        if read.isDerived {
            return DerivationProblem(
                message:
                    "'\(key)' of \(entity.name) is derived itself: Remodel does not derive from a derived attribute; derive from what '\(key)' reads",
                key: index, isUnsupported: true)
        }
        if read.type == .composite {
            return DerivationProblem(
                message: "'\(key)' of \(entity.name) is a Composite attribute, which Remodel does not derive from",
                key: index, isUnsupported: true)
        }
        return nil
    }

    /// Why the derivation's value does not fit the derived attribute's type, or nil.
    private func typeProblem(of resolved: ResolvedDerivation, into attribute: Attribute, owner: String)
        -> DerivationProblem?
    {
        let target = attribute.type
        let keys = resolved.derivation.keys
        let readKey = keys.isEmpty ? nil : keys.count - 1
        switch resolved.derivation.form {
        case .now: return nil
        case .keyPath:
            guard let read = resolved.read, !Self.fits(read.type, into: target) else { return nil }
            return DerivationProblem(
                message:
                    "\(owner) is \(target.rawValue), but \(resolved.derivation.text) is \(read.type.rawValue); give it the type of what it derives",
                key: readKey)
        case .function(let function, _):
            guard let read = resolved.read else { return nil }
            if read.type != .string {
                return DerivationProblem(
                    message: "\(function.rawValue): takes a String, but '\(read.name)' is \(read.type.rawValue)",
                    key: readKey)
            }
            if target != .string {
                return DerivationProblem(
                    message:
                        "\(function.rawValue): gives a String, but \(owner) is \(target.rawValue); make it a String")
            }
            return nil
        case .aggregate(let aggregate, _, _):
            return aggregateProblem(aggregate, read: resolved.read, into: target, owner: owner, key: readKey)
        }
    }

    private func aggregateProblem(
        _ aggregate: Derivation.Aggregate, read: ResolvedDerivation.Read?, into target: AttributeType, owner: String,
        key: Int?
    ) -> DerivationProblem? {
        let name = "@\(aggregate.rawValue)"
        if aggregate == .count {
            return target.isInteger
                ? nil
                : DerivationProblem(
                    message:
                        "@count gives a whole number, but \(owner) is \(target.rawValue); make it an Integer 16, 32 or 64"
                )
        }
        guard let read else { return nil }
        let numbers: Set<AttributeType> = [.integer16, .integer32, .integer64, .double, .float]
        let allowed = aggregate == .min || aggregate == .max ? numbers.union([.date]) : numbers
        guard allowed.contains(read.type) else {
            let unsupported = read.type == .decimal
            let why =
                unsupported
                ? "Remodel does not aggregate Decimal values (SQLite would compute them as binary floating point)"
                : "it aggregates \(aggregate == .min || aggregate == .max ? "numbers and dates" : "numbers")"
            return DerivationProblem(
                message: "\(name) of '\(read.name)', which is \(read.type.rawValue): \(why)", key: key,
                isUnsupported: unsupported)
        }
        let result: AttributeType = aggregate == .avg ? .double : read.type
        guard !Self.fits(result, into: target) else { return nil }
        let wanted = aggregate == .avg ? "a Double or a Float" : "\(read.type.rawValue) (or wider)"
        return DerivationProblem(
            message:
                "\(name) of '\(read.name)' gives \(result.rawValue), but \(owner) is \(target.rawValue); make it \(wanted)"
        )
    }

    /// Whether values of `type` are kept unchanged by an attribute of type `target`: the same type, an integer
    /// into a wider one, or a Float into a Double (and a Double into a Float, as Core Data stores both as doubles).
    static func fits(_ type: AttributeType, into target: AttributeType) -> Bool {
        if type == target { return true }
        if let range = type.integerRange, let wider = target.integerRange {
            return wider.lowerBound <= range.lowerBound && range.upperBound <= wider.upperBound
        }
        let reals: Set<AttributeType> = [.double, .float]
        return reals.contains(type) && reals.contains(target)
    }
}
