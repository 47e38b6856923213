/// How a stored composite value of one version becomes a value of another version's composite, when the two
/// composites differ (a member added, removed, renamed or retyped): each member of the destination from the source
/// member it matches (by name or renaming identifier, as attributes match), converted where its type widened as
/// inference widens an attribute's; a new member takes its default, or nil. Nested composites the same way.
///
/// Inference works out the plan and its problems (``plan(from:in:to:in:)``); phase 1 applies it to every value
/// (`remodel_composite_reshape`, ``CompositeReshapes``).
package struct CompositeReshape: Sendable {
    /// Where a destination member's value comes from.
    enum Origin: Sendable {
        /// The source member of that name, as it is, converted, or reshaped in turn.
        case member(String, conversion: Conversion?, nested: CompositeReshape?)
        /// A constant: the member's default, or nil.
        case value(SQLiteValue)
    }

    /// A type conversion of a member: its value read in the source type, converted as expressions convert.
    struct Conversion: Sendable {
        var from: AttributeType
        var to: AttributeType
    }

    struct Member: Sendable {
        var name: String
        var type: AttributeType
        var origin: Origin
    }

    /// The destination's members, in its order.
    var members: [Member]
    /// The source members no destination member takes (their values go).
    package var droppedMembers: [String]

    /// The reshape from `source` (an attribute of `sourceVersion`) to `destination`, with what inference cannot do
    /// (one sentence each, naming the member): a new required member with no default, a type that does not widen
    /// without loss, a composite member that becomes a plain one or the other way round.
    package static func plan(
        from source: Attribute, in sourceVersion: ModelVersion, to destination: Attribute,
        in destinationVersion: ModelVersion
    ) -> (reshape: CompositeReshape, problems: [String]) {
        var problems: [String] = []
        let reshape = plan(
            source, sourceVersion, destination, destinationVersion, path: [], depth: 0, problems: &problems)
        return (reshape, problems)
    }

    private static func plan(
        _ source: Attribute, _ sourceVersion: ModelVersion, _ destination: Attribute,
        _ destinationVersion: ModelVersion, path: [String], depth: Int, problems: inout [String]
    ) -> CompositeReshape {
        let sources = sourceVersion.members(of: source)
        let destinations = destinationVersion.members(of: destination)
        let matcher = ElementMatcher<Attribute, Attribute>(sources: sources, name: \.name, elementID: \.elementID)
        let matches = matcher.match(destinations, name: \.name, elementID: \.elementID)
        var members: [Member] = []
        var taken: Set<String> = []
        for (member, match) in zip(destinations, matches) {
            let name = (path + [member.name]).joined(separator: ".")
            guard let match else {
                let fallback = ModelDefaultValue.stored(for: member) ?? .null
                if fallback.isNull, !member.isOptional {
                    problems.append(
                        "member \"\(name)\" is new and required, with no default value; give it a default in the model")
                }
                members.append(Member(name: member.name, type: member.type, origin: .value(fallback)))
                continue
            }
            let from = match.source
            taken.insert(from.name)
            if (from.type == .composite) != (member.type == .composite) {
                problems.append(
                    "member \"\(name)\" was \(from.type.rawValue) and is now \(member.type.rawValue), which cannot be inferred"
                )
                members.append(Member(name: member.name, type: member.type, origin: .value(.null)))
                continue
            }
            if member.type == .composite {
                let nested =
                    depth + 1 < ModelVersion.maximumCompositeDepth
                    ? plan(
                        from, sourceVersion, member, destinationVersion, path: path + [member.name], depth: depth + 1,
                        problems: &problems) : nil
                members.append(
                    Member(
                        name: member.name, type: member.type,
                        origin: .member(from.name, conversion: nil, nested: nested)))
                continue
            }
            var conversion: Conversion?
            if from.type != member.type {
                if TypeConversion.lossless(from: from.type, to: member.type, operand: "x") == nil {
                    problems.append(
                        "member \"\(name)\": \(from.type.rawValue) → \(member.type.rawValue) cannot be inferred (\(TypeConversion.refusalReason(from: from.type, to: member.type)))"
                    )
                    members.append(Member(name: member.name, type: member.type, origin: .value(.null)))
                    continue
                }
                conversion = Conversion(from: from.type, to: member.type)
            }
            members.append(
                Member(
                    name: member.name, type: member.type,
                    origin: .member(from.name, conversion: conversion, nested: nil)))
        }
        let dropped = sources.map(\.name).filter { !taken.contains($0) }.map { (path + [$0]).joined(separator: ".") }
        let nestedDropped = members.flatMap { member -> [String] in
            guard case .member(_, _, let nested?) = member.origin else { return [] }
            return nested.droppedMembers
        }
        return CompositeReshape(members: members, droppedMembers: dropped + nestedDropped)
    }

    /// The destination value of a source value (a parsed composite object); nil when the source value is not an
    /// object (damage, left as it is for phase 3 to name).
    package func apply(_ value: JSONValue) -> JSONValue? {
        guard case .object(let given) = value else { return nil }
        var result: [(key: String, value: JSONValue)] = []
        result.reserveCapacity(members.count)
        for member in members {
            switch member.origin {
            case .value(let constant):
                var output = JSONOutput()
                AttributeCodec.writeJSON(constant, type: member.type, to: &output)
                var parser = JSONPullParser(bytes: output.bytes)
                result.append((member.name, (try? parser.readValue()) ?? .null))
            case .member(let name, let conversion, let nested):
                let found = given.first { $0.key == name }?.value ?? .null
                if let nested, found != .null {
                    result.append((member.name, nested.apply(found) ?? found))
                } else if let conversion, found != .null {
                    result.append((member.name, Self.convert(found, conversion) ?? found))
                } else {
                    result.append((member.name, found))
                }
            }
        }
        return .object(result)
    }

    /// A member's export JSON converted from one type to another as the expression functions convert stored values.
    private static func convert(_ value: JSONValue, _ conversion: Conversion) -> JSONValue? {
        guard let from = ExpressionType(conversion.from), let to = ExpressionType(conversion.to),
            let stored = try? AttributeCodec.plainValue(value, type: conversion.from)
        else { return nil }
        let converted = ExpressionRuntime.convert(stored, from: from, to: to)
        var output = JSONOutput()
        AttributeCodec.writeJSON(converted, type: conversion.to, to: &output)
        var parser = JSONPullParser(bytes: output.bytes)
        return try? parser.readValue()
    }
}
