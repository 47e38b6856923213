import Foundation

/// Phase 3's check of composite values: `remodel_composite_problem(value, key)` is the sentence saying what is
/// wrong with a stored composite value (a member of the wrong type, a required member nil, a bound broken, a
/// member the composite lacks, not a JSON object at all), NULL when nothing is. The key names the attribute
/// (``key(entity:attribute:)``); the codecs are made when first asked.
final class CompositeChecks: @unchecked Sendable {
    /// The SQL function's name.
    static let functionName = "remodel_composite_problem"

    private let version: ModelVersion
    // `codecs` is guarded by `lock`.
    private let lock = NSLock()
    private var codecs: [String: AttributeCodec?] = [:]

    init(version: ModelVersion) {
        self.version = version
    }

    static func key(entity: String, attribute: String) -> String { entity + "\u{1F}" + attribute }

    func register(on connection: SQLiteConnection) throws(RemodelError) {
        try connection.createFunction(Self.functionName, argumentCount: 2) { [self] arguments in
            guard case .text(let key) = arguments[1] else { return .null }
            return problem(arguments[0], key: key).map { .text($0) } ?? .null
        }
    }

    /// What is wrong with a stored value of the attribute `key` names, or nil.
    func problem(_ value: SQLiteValue, key: String) -> String? {
        guard let codec = codec(key) else { return nil }
        return codec.compositeProblem(stored: value)?.message
    }

    private func codec(_ key: String) -> AttributeCodec? {
        lock.locked {
            if let known = codecs[key] { return known }
            let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            var made: AttributeCodec?
            if parts.count == 2, let entity = version.entity(named: parts[0]),
                let attribute = version.attribute(named: parts[1], in: entity)
            {
                made = try? AttributeCodec(attribute: attribute, entity: entity.name, version: version)
            }
            codecs[key] = .some(made)
            return made
        }
    }
}
