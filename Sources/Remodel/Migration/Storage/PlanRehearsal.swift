/// Rehearses, before anything is written, the schema every pass of a plan leaves, with what the app
/// added to the store (see ``SchemaRehearsal``): a plan whose passes would break an app's index,
/// trigger or view is refused at planning, by `plan`, `status` and `--dry-run` as by `migrate`.
enum PlanRehearsal {
    /// Reads the app's schema from the store on `connection` and rehearses every pass of `plan`; returns what
    /// the app added, as the plan lists it.
    @discardableResult
    static func run(_ plan: MigrationPlan, options: MigrationOptions, on connection: SQLiteConnection) throws(RemodelError) -> [String] {
        guard let first = plan.steps.first else { return [] }
        var app = try AppSchema.read(from: connection, schema: "main", layout: StoreLayout(version: first.source))
        let summary = app.summary
        for pass in StepComposition.passes(of: plan.steps, options: options) {
            let policies = Set(options.forStep(pass.written).policies.map(\.destination))
            let changes = StorageChanges.cumulative(pass.steps, policies: policies).last ?? StorageChanges()
            let destination = StoreLayout(version: pass.written.destination)
            let source = pass.passedThrough.first?.source ?? pass.written.source
            let rehearsal = SchemaRehearsal(
                app: app, destination: destination, changes: changes, stepName: "\(source.name) → \(pass.written.destination.name)")
            try rehearsal.run()
            // The next pass starts from this one's tables, with the app's columns where they went.
            var next = app
            next.extraColumns = [:]
            for table in destination.tables {
                let columns = rehearsal.appColumns(of: table.name)
                if !columns.isEmpty { next.extraColumns[table.name] = columns }
            }
            app = next
        }
        return summary
    }
}
