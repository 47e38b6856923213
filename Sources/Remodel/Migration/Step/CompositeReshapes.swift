import Foundation

/// The composite reshapes of one step (``CompositeReshape``), worked out when phase 1 first asks for one, behind
/// the SQL function `remodel_composite_reshape(value, key)` that phase 1 calls on a composite value whose composite
/// the step changes. The key names the source and destination attributes (``key(from:_:to:_:)``).
final class CompositeReshapes: @unchecked Sendable {
    /// The SQL function's name.
    static let functionName = "remodel_composite_reshape"

    private let source: ModelVersion
    private let destination: ModelVersion
    // `known` is guarded by `lock`.
    private let lock = NSLock()
    private var known: [String: (reshape: CompositeReshape, codec: AttributeCodec)?] = [:]

    init(source: ModelVersion, destination: ModelVersion) {
        self.source = source
        self.destination = destination
    }

    /// The key of the reshape of `sourceAttribute` of `sourceEntity` into `attribute` of `entity`.
    static func key(from sourceEntity: String, _ sourceAttribute: String, to entity: String, _ attribute: String)
        -> String
    {
        [sourceEntity, sourceAttribute, entity, attribute].joined(separator: "\u{1F}")
    }

    /// Registers the function on the step's connection.
    func register(on connection: SQLiteConnection) throws(RemodelError) {
        try connection.createFunction(Self.functionName, argumentCount: 2) { [self] arguments in
            guard case .text(let key) = arguments[1] else { return arguments[0] }
            return reshape(arguments[0], key: key)
        }
    }

    /// The value in the destination's composite: a value that does not read as a composite object is left as it is
    /// (phase 3 names it); one that reads is written as the destination composite stores it.
    func reshape(_ value: SQLiteValue, key: String) -> SQLiteValue {
        guard case .text(let text) = value, let (reshape, codec) = entry(key) else { return value }
        var parser = JSONPullParser(bytes: Array(text.utf8))
        guard let parsed = try? parser.readValue(), let reshaped = reshape.apply(parsed) else { return value }
        if let canonical = try? codec.compositeText(reshaped) { return .text(canonical) }
        var output = JSONOutput()
        output.write(json: reshaped)
        return .text(output.text)
    }

    private func entry(_ key: String) -> (reshape: CompositeReshape, codec: AttributeCodec)? {
        lock.locked {
            if let known = known[key] { return known }
            let made = make(key)
            known[key] = .some(made)
            return made
        }
    }

    private func make(_ key: String) -> (reshape: CompositeReshape, codec: AttributeCodec)? {
        let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let sourceEntity = source.entity(named: parts[0]),
            let sourceAttribute = source.attribute(named: parts[1], in: sourceEntity),
            let entity = destination.entity(named: parts[2]),
            let attribute = destination.attribute(named: parts[3], in: entity),
            let codec = try? AttributeCodec(attribute: attribute, entity: entity.name, version: destination)
        else { return nil }
        let (reshape, _) = CompositeReshape.plan(
            from: sourceAttribute, in: source, to: attribute, in: destination)
        return (reshape, codec)
    }
}
