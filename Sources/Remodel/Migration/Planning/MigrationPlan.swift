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
    /// Whether the store is newer than the bundle and the plan migrates it down, from the model it
    /// carries (``MigrationOptions/downgrade``).
    public var isDowngrade = false
    /// The store's migration history as read under the lock when the plan was made for the migration itself:
    /// the first pass writes it on with its own steps, without reading the store's metadata again.
    var history: [StoreMetadata.HistoryEntry]?
    /// The steps (1-based) of each pass over the store, for the options the plan was made with.
    var passes: [ClosedRange<Int>] = []
    /// The tables each pass writes (in its last version's names), and those the whole migration writes.
    var writtenTables: [[String]] = []
    var tablesWritten: Set<String> = []

    /// The plan step by step, entity by entity, property by property, each with its provenance.
    public var description: String {
        guard !steps.isEmpty else { return "\(modelName): the store is at \(targetVersion); nothing to do.\n" }
        var lines = [
            "\(modelName): migrate from \(sourceVersion) to \(targetVersion) in \(steps.count) step\(steps.count == 1 ? "" : "s")"
        ]
        if isDowngrade {
            lines[0] += " (down: \(sourceVersion) is newer than this build, read from the model the store carries)"
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
                        let value = attribute.value?.text ?? "nil"
                        lines.append("      \(attribute.destination) = \(value)  [\(attribute.provenance)]")
                    }
                    for relationship in entity.relationships {
                        let value = relationship.source.map { "$source.\($0)" } ?? "empty"
                        lines.append("      \(relationship.destination) ← \(value)  [\(relationship.provenance)]")
                    }
                }
            }
            for problem in step.mapping.problems {
                lines.append("  ! \(problem) (checked on the data this step gets, when it runs)")
            }
            for loss in losses
            where loss.sourceVersion == step.source.name && loss.destinationVersion == step.destination.name {
                lines.append("  Drops \(loss.detail)")
            }
        }
        if !carried.isEmpty {
            lines.append("Carried as they are: " + carried.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
