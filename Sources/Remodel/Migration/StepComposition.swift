/// Which steps of a plan run together as one pass over the store.
///
/// A step whose result is only read by the next step need not be written:
/// when it keeps every object under its own key and carries every link as it
/// is, its result can be expressed as views over its source (see
/// ``IntermediateViews``), and the next step reads those views as if they were
/// a store. SQLite flattens the views into the next step's `INSERT … SELECT`,
/// so v1 → v2 → v3 is one copy, and the intermediate version's rules are still
/// checked, on the views, before anything replaces the original.
enum StepComposition {
    /// One pass: the steps that stand in as views, then the step that is written.
    struct Pass {
        /// Steps read through views, in order.
        var passedThrough: [MigrationStep]
        /// The step whose result is written.
        var written: MigrationStep
        /// The 1-based number of the written step in the plan.
        var number: Int

        /// Every step of the pass, in order.
        var steps: [MigrationStep] { passedThrough + [written] }
    }

    /// Groups a plan's steps into passes: every step that can stand in as views is
    /// read through by the next step; the last step is always written.
    static func passes(of steps: [MigrationStep], options: MigrationOptions) -> [Pass] {
        // Swift code sees real stores: with policies or hooks every step is written.
        let composable =
            options.composesSteps && options.policies.isEmpty && options.hooks.beforeStep == nil && options.hooks.afterStep == nil
        var passes: [Pass] = []
        var waiting: [MigrationStep] = []
        for (offset, step) in steps.enumerated() {
            if composable, offset < steps.count - 1, canStandIn(step) {
                waiting.append(step)
            } else {
                passes.append(Pass(passedThrough: waiting, written: step, number: offset + 1))
                waiting = []
            }
        }
        return passes
    }

    /// Whether a step's result can be views over its source: every source object
    /// arrives once under its own key, unfiltered; every to-one link is the
    /// source column as it is; every join table is a source join table as it is;
    /// and nothing needs renumbering.
    static func canStandIn(_ step: MigrationStep) -> Bool {
        // The analysis reads only the models, layouts and mapping; the context wants a connection and a tracker.
        guard let connection = try? SQLiteConnection(path: ":memory:") else { return false }
        let context = StepContext(
            connection: connection, step: 0, source: step.source, destination: step.destination, mapping: step.mapping,
            environment: ExpressionEnvironment(now: .distantPast),
            tracker: ProgressTracker(steps: 1, cancellation: CancellationFlag(), observer: { _ in }), batchSize: 1)
        return everyObjectArrivesOnce(context) && linksArePlainCopies(context)
    }

    private static func everyObjectArrivesOnce(_ context: StepContext) -> Bool {
        var mapped: [String: Int] = [:]
        for mapping in context.mapping.entities {
            guard let source = mapping.source else { continue }
            guard mapping.destination != nil, mapping.filter == nil else { return false }
            mapped[source, default: 0] += 1
        }
        for entity in context.source.entities where !entity.isAbstract {
            guard mapped[entity.name] == 1 else { return false }
        }
        // A table nothing feeds has no mode: it stays empty, which a view does as well.
        return !context.destinationLayout.tables.contains { context.keys.mode(ofDestinationTable: $0.name) == .remapped }
    }

    private static func linksArePlainCopies(_ context: StepContext) -> Bool {
        let builder = RelationshipBuilder(context: context)
        guard builder.orderColumns().isEmpty else { return false }
        for resolved in context.resolvedMappings {
            let (sourceEntity, entity) = (resolved.sourceEntity, resolved.destinationEntity)
            for relationshipMapping in resolved.mapping.relationships {
                guard let sourceRelationshipName = relationshipMapping.source,
                    let relationship = context.destination.relationship(named: relationshipMapping.destination, in: entity),
                    case .column? = context.destinationLayout.storage(of: relationship.name, in: entity.name)
                else { continue }
                guard let sourceRelationship = context.source.relationship(named: sourceRelationshipName, in: sourceEntity),
                    context.canCopyLinks(relationship, in: entity, from: sourceRelationship, in: sourceEntity),
                    IntermediateViews.targetsKeepTheirKind(relationship, from: sourceRelationship, in: context)
                else { return false }
            }
        }
        // To-one columns are checked above (the analysis runs no phase 1 to tell the builder they are
        // copied); join tables by `joinSources`; a column written from the inverse side is no plain copy.
        let writesInverseColumns = builder.plannedWrites().contains {
            if case .inverseColumn = $0.storage { return true }
            return false
        }
        return !writesInverseColumns && IntermediateViews.joinSources(in: context) != nil
    }
}
