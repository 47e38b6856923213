/// Checks a model bundle for every mistake Core Data or the store would trip
/// over, and for the ones Xcode warns about, without stopping at the first.
///
/// For example:
/// ```swift
/// let result = ModelReader.read(path: "Models/Library.xcdatamodeld")
/// if let bundle = result.bundle {
///     for diagnostic in ModelValidator.validate(bundle) {
///         print(diagnostic) // Models/…/contents:7:71: error: … [missing-inverse]
///     }
/// }
/// ```
package enum ModelValidator {
    /// Validates every version of the bundle, then the bundle as a whole.
    ///
    /// - Parameter bundle: A bundle as ``ModelReader`` read it.
    /// - Returns: The diagnostics, sorted by file, line and column.
    package static func validate(_ bundle: ModelBundle) -> [Diagnostic] {
        var list = DiagnosticList()
        for version in bundle.versions {
            validate(version, into: &list)
        }
        VersionRules.check(bundle, into: &list)
        return list.items.sorted()
    }

    /// The errors (not the warnings) the rules that look at one version find in it, sorted.
    static func errors(in version: ModelVersion) -> [Diagnostic] {
        var clean = CleanEntities()
        return errors(in: version, clean: &clean)
    }

    /// ``errors(in:)``, passing by the rules that read only an entity and its ancestors (``EntityScope``) for each
    /// entity `clean` holds: found without errors in another version of the same bundle, its text and its ancestors'
    /// texts the same there. Records the entities of `version` found so. The errors are those ``errors(in:)`` finds:
    /// the same text is the same entity, and those rules read nothing else (the rules that read other entities,
    /// names across the model, inverses, destinations and the hierarchy, run on every entity).
    static func errors(in version: ModelVersion, clean: inout CleanEntities) -> [Diagnostic] {
        var list = DiagnosticList()
        list.keepsWarnings = false
        let keys = version.entities.map { clean.key(of: $0, in: version) }
        var scope = EntityScope(passing: keys.map { key in key.map(clean.keys.contains) ?? false })
        validate(version, into: &list, scope: &scope)
        for (position, key) in keys.enumerated() {
            guard let key, !scope.passing[position], !scope.faulty[position] else { continue }
            clean.keys.insert(key)
        }
        return list.items.filter { $0.severity == .error }.sorted()
    }

    /// Runs every rule that looks at one version.
    static func validate(_ version: ModelVersion, into list: inout DiagnosticList) {
        var scope = EntityScope(passing: [])
        validate(version, into: &list, scope: &scope)
    }

    private static func validate(_ version: ModelVersion, into list: inout DiagnosticList, scope: inout EntityScope) {
        NameRules.check(version, into: &list, scope: &scope)
        InheritanceRules.check(version, into: &list)
        AttributeRules.check(version, into: &list)
        ValueRules.check(version, into: &list, scope: &scope)
        RelationshipRules.check(version, into: &list)
        ConstraintRules.check(version, into: &list, scope: &scope)
        DerivationRules.check(version, into: &list)
        FormatRules.check(version, into: &list)
        ConfigurationRules.check(version, into: &list)
    }

    /// The entities a bundle's gate found without errors in one version, by what the per-entity rules read: the
    /// texts of the entity and of its ancestors, in order (``EntityTextDigest``). Only versions read from files
    /// have texts; an entity without one is always checked.
    struct CleanEntities {
        fileprivate var keys: Set<[EntityTextDigest]> = []

        init() {}

        /// Whether the gate passes `entity` of `version` by (tests count the shortcut's uses).
        func passes(_ entity: Entity, in version: ModelVersion) -> Bool {
            key(of: entity, in: version).map(keys.contains) ?? false
        }

        /// The texts of `entity` and its ancestors in `version`, or nil when one is not known.
        fileprivate func key(of entity: Entity, in version: ModelVersion) -> [EntityTextDigest]? {
            guard !version.entityTexts.isEmpty, let own = version.entityTexts[entity.name] else { return nil }
            guard entity.parentName != nil else { return [own] }
            var key = [own]
            for ancestor in version.ancestors(of: entity) {
                guard let text = version.entityTexts[ancestor.name] else { return nil }
                key.append(text)
            }
            return key
        }
    }
}

/// Which entities of a version the rules that read only an entity and its ancestors check (NameRules' property
/// names, ValueRules, ConstraintRules), by position in ``ModelVersion/entities``, and which they found errors in.
struct EntityScope {
    /// The entities passed by (``ModelValidator/CleanEntities``); empty: none.
    let passing: [Bool]
    /// The entities these rules reported something for.
    private(set) var faulty: [Bool]

    init(passing: [Bool]) {
        self.passing = passing
        faulty = [Bool](repeating: false, count: passing.count)
    }

    /// Runs `check` on the entity at `position` unless it is passed by, noting whether it reported anything.
    mutating func check(_ position: Int, _ list: inout DiagnosticList, _ check: (inout DiagnosticList) -> Void) {
        guard position < passing.count else { return check(&list) }
        guard !passing[position] else { return }
        let before = list.items.count
        check(&list)
        if list.items.count != before { faulty[position] = true }
    }
}
