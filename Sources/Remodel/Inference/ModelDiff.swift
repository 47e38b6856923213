/// What changed between two versions of a model, property by property, and
/// how each change will be migrated — with lint for changes that lose data.
///
/// For example:
/// ```swift
/// let diff = try ModelDiff(bundle: bundle, from: "Library", to: "Library 2")
/// for lint in diff.lints { print(lint) }
/// ```
public struct ModelDiff: Sendable {
    /// How an element changed.
    public enum Change: String, Sendable, Hashable {
        case added, removed, changed, unchanged
    }

    /// One property's change.
    public struct PropertyChange: Sendable, Hashable {
        /// The property's name in the destination (in the source for removals).
        public var name: String
        /// Added, removed, changed or unchanged.
        public var change: Change
        /// What changed, such as `Integer 16 → Integer 32` or `optional → required`.
        public var details: [String]
        /// How it will be migrated: a provenance phrase, or `needs a mapping: …`.
        public var migration: String
    }

    /// One entity's change.
    public struct EntityChange: Sendable, Hashable {
        /// The entity's name in the destination (in the source for removals).
        public var name: String
        /// The source entity's name when it differs (a rename).
        public var sourceName: String?
        /// Added, removed, changed or unchanged.
        public var change: Change
        /// The entity mapping's kind.
        public var migration: EntityMapping.Kind
        /// Property changes, changed ones only unless the property is new or removed.
        public var properties: [PropertyChange]
    }

    /// A destructive or suspicious change.
    public struct Lint: Sendable, Hashable, CustomStringConvertible {
        /// The rule's id, such as `data-dropped`.
        public var rule: String
        /// Error (cannot migrate without a mapping) or warning.
        public var severity: Severity
        /// The entity.
        public var entity: String
        /// The property, if any.
        public var property: String?
        /// What and why.
        public var message: String

        public var description: String { "\(severity.rawValue): \(message) [\(rule)]" }

        package init(
            rule: DiagnosticRule, severity: Severity, entity: String, property: String? = nil, message: String
        ) {
            self.rule = rule.rawValue
            self.severity = severity
            self.entity = entity
            self.property = property
            self.message = message
        }
    }

    /// The version compared from.
    public var from: String
    /// The version compared to.
    public var to: String
    /// Entity changes, in destination order, then removed entities.
    public var entities: [EntityChange]
    /// Lint findings.
    public var lints: [Lint]
    /// The inferred mapping the diff describes.
    public var mapping: MappingModel

    /// Compares two versions of a bundle side by side, without walking the versions between them, through
    /// `mapping` (default: the inferred one).
    /// - Throws: ``/RemodelModel/RemodelError`` when a version does not exist.
    init(comparing bundle: ModelBundle, from: String, to: String, mapping: MappingModel? = nil) throws(RemodelError) {
        let source = try bundle.requireVersion(named: from, code: .invalidMapping)
        let destination = try bundle.requireVersion(named: to, code: .invalidMapping)
        let mapping = mapping ?? MappingInference.infer(from: source, to: destination, modelName: bundle.name)
        var builder = ModelDiffBuilder(source: source, destination: destination, mapping: mapping)
        self.from = from
        self.to = to
        self.mapping = mapping
        self.entities = builder.entityChanges()
        self.lints = builder.lints
    }
}
