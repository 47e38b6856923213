/// What a migration will do, computed before anything is written.
///
/// For example:
/// ```swift
/// let plan = try MigrationPlanner.plan(bundle: bundle, from: "Library", to: "Library 3", mappingsDirectory: "Mappings")
/// print(plan.description)
/// ```
public struct MigrationPlan: Sendable, CustomStringConvertible {
    /// The model's name.
    public var modelName: String
    /// The store's version.
    public var sourceVersion: String
    /// The version the store will be at.
    public var targetVersion: String
    /// The steps, in order. Empty when the store is already at the target.
    public var steps: [MigrationStep]
    /// Everything the steps drop on purpose, with the first step's counts read from the store (later
    /// steps' counts are read when they run, and given in the ``MigrationReport``).
    public var losses: [DataLoss] = []
    /// What the store holds beyond the model, which every step carries as it is (`table tb_clientstage`,
    /// `column Person.nickname`, `trigger audit on Book`, …).
    public var carried: [String] = []
    /// Each step planned (layouts, keys, what it carries and rebuilds), in order: what the executor runs.
    var stepPlans: [StepPlan] = []
    /// Each step's rehearsal of what the app added to the store, once the plan is made for a store.
    var rehearsals: [SchemaRehearsal] = []
    /// Whether the plan migrates the store down (``MigrationOptions/downgrade``): from the model it carries when
    /// it is newer than the bundle, or from a version of the bundle after ``MigrationOptions/targetVersion``.
    public var isDowngrade = false
    /// For a downgrade, whether the store's version is one of the bundle's (a `--to` an older version).
    var isDowngradeWithinBundle = false
    /// The store's migration history as read under the lock when the plan was made for the migration itself:
    /// the first pass writes it on with its own steps, without reading the store's metadata again.
    var history: [StoreMetadata.HistoryEntry]?
    /// The steps (1-based) of each pass over the store, for the options the plan was made with.
    var passes: [ClosedRange<Int>] = []
    /// The tables each pass writes (in its last version's names), and those the whole migration writes.
    var writtenTables: [[String]] = []
    var tablesWritten: Set<String> = []

    /// The tables a step gives new keys to, in the plan's words.
    private static func renumbering(_ plan: StepPlan) -> [String] {
        plan.keys.renumbered.map { table, staying in
            let others = (plan.changes.feeders[table] ?? []).subtracting(staying.map { [$0] } ?? []).sorted()
            let from =
                others.isEmpty
                ? "objects made twice from \(staying ?? table)" : "objects from \(others.joined(separator: ", "))"
            let kept = staying.map { ", numbered after those of \($0), which keep theirs" } ?? ""
            return "  Renumbers \(table): \(from) get new keys (_pk)\(kept)"
        }
    }

    /// The plan step by step, entity by entity, property by property, each with its provenance.
    public var description: String {
        guard !steps.isEmpty else { return "\(modelName): the store is at \(targetVersion); nothing to do.\n" }
        var lines = [
            "\(modelName): migrate from \(sourceVersion) to \(targetVersion) in \(steps.count) step\(steps.count == 1 ? "" : "s")"
        ]
        if isDowngrade {
            lines[0] +=
                isDowngradeWithinBundle
                ? " (down: \(sourceVersion) comes after \(targetVersion) in the version order)"
                : " (down: \(sourceVersion) is newer than this build, read from the model the store carries)"
        }
        for (index, step) in steps.enumerated() {
            let how =
                step.mapping.files.isEmpty ? "inferred" : "mapping file \(step.mapping.files.joined(separator: ", "))"
            lines.append("Step \(index + 1): \(step.source.name) → \(step.destination.name) (\(how))")
            for entity in step.mapping.entities {
                switch entity.kind {
                case .remove:
                    lines.append("  - \(entity.source ?? "?"): removed, objects dropped (\(entity.provenance))")
                case .add:
                    lines.append("  + \(entity.destination ?? "?"): added, starts empty (\(entity.provenance))")
                case .copy, .transform:
                    let from = entity.source == entity.destination ? "" : " from \(entity.source ?? "?")"
                    let filter = entity.filter.map { " where \($0.text)" } ?? ""
                    let policy = entity.policy.map { ", made by the Swift policy registered for \($0.className)" } ?? ""
                    lines.append(
                        "  \(entity.destination ?? "?")\(from): \(entity.kind.rawValue)\(filter) (\(entity.provenance)\(policy))"
                    )
                    for attribute in entity.attributes {
                        let value =
                            attribute.value?.text
                            ?? Self.writtenDefault(of: attribute, in: entity.destination, version: step.destination)
                        lines.append("      \(attribute.destination) = \(value)  [\(attribute.provenance)]")
                    }
                    for relationship in entity.relationships {
                        let value =
                            relationship.readsSourceObject
                            ? RelationshipMapping.sourceObject : relationship.source.map { "$source.\($0)" } ?? "empty"
                        lines.append("      \(relationship.destination) ← \(value)  [\(relationship.provenance)]")
                    }
                }
            }
            for problem in step.mapping.problems {
                lines.append("  ! \(problem) (checked on the data this step gets, when it runs)")
            }
            for loss in losses
            where loss.sourceVersion == step.source.name && loss.destinationVersion == step.destination.name {
                lines.append(loss.becameNil ? "  Loses: \(loss.detail)" : "  Drops \(loss.detail)")
            }
            if index < stepPlans.count { lines += Self.renumbering(stepPlans[index]) }
            if index < rehearsals.count { lines += rehearsals[index].upkeep.planLines }
        }
        if stepPlans.contains(where: { !$0.keys.renumbered.isEmpty }) {
            lines.append(
                "Keys a step renumbers are followed where the store declares them (the model's relationships, the app's foreign keys and REFERENCES, which are refused where they name a table merged away); a key kept where nothing declares it (an INTEGER column without REFERENCES, a key outside the store) cannot be known and is not changed."
            )
        }
        // An index a step rebuilds is not carried as it is: its step's line says so.
        let rebuilt = Set(rehearsals.flatMap(\.upkeep.rebuilds).map { "table \($0.index)" })
        let asTheyAre = carried.filter { !rebuilt.contains($0) }
        if !asTheyAre.isEmpty {
            lines.append("Carried as they are: " + asTheyAre.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the migration writes for an attribute mapped to no expression: its model default, as the store
    /// holds it but written as an expression would be (`false` for a Boolean default `NO`, `'text'`, `12`),
    /// or `nil`.
    static func writtenDefault(of mapping: AttributeMapping, in entityName: String?, version: ModelVersion) -> String {
        guard case .modelDefault(let text) = mapping.provenance,
            let entity = entityName.flatMap(version.entity(named:)),
            let attribute = version.attribute(named: mapping.destination, in: entity),
            let stored = ModelDefaultValue.stored(text, as: attribute.type)
        else { return "nil" }
        switch (attribute.type, stored) {
        case (.boolean, .integer(let flag)): return flag != 0 ? "true" : "false"
        case (.date, .real(let seconds)): return ISODate.format(seconds).map { "'\($0)'" } ?? "\(seconds)"
        case (_, .integer(let number)): return "\(number)"
        case (_, .real(let number)): return "\(number)"
        case (_, .text(let string)):
            let escaped = string.replacingCharacter("\\", with: "\\\\").replacingCharacter("'", with: "\\'")
            return "'\(escaped)'"
        default: return "nil"
        }
    }
}
