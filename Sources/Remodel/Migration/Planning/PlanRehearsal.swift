/// Rehearses, before anything is written, the schema every step of a plan leaves, with what the app
/// added to the store (see ``SchemaRehearsal``): a plan whose steps would break an app's index, trigger
/// or view is refused at planning, by `plan`, `status` and `--dry-run` as by `migrate`.
enum PlanRehearsal {
    /// Reads the app's schema from the store on `connection` and rehearses every step of `steps`.
    /// - Returns: Each step's rehearsal (with what the app has when the step starts), and what the app
    ///   added to the store, as the plan lists it.
    static func run(_ steps: [StepPlan], on connection: SQLiteConnection) throws(RemodelError) -> (
        rehearsals: [SchemaRehearsal], carried: [String]
    ) {
        guard let first = steps.first else { return ([], []) }
        var app = try AppSchema.read(from: connection, schema: "main", layout: first.sourceLayout)
        let summary = app.summary
        var rehearsals: [SchemaRehearsal] = []
        for step in steps {
            var rehearsal = SchemaRehearsal(
                app: app, source: step.sourceLayout, destination: step.destinationLayout, changes: step.changes,
                stepName: step.name)
            try rehearsal.run()
            rehearsals.append(rehearsal)
            app = rehearsal.appAfter
        }
        return (rehearsals, summary)
    }
}
