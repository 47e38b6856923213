/// Everything one migration step works with: the connection to the store
/// being built (with the source store attached as `src`), both layouts, the
/// mapping and how keys are assigned.
final class StepContext {
    let connection: SQLiteConnection
    /// The pass's number, for progress.
    let pass: Int
    let source: ModelVersion
    let destination: ModelVersion
    let sourceLayout: StoreLayout
    let destinationLayout: StoreLayout
    let mapping: MappingModel
    let keys: KeyPlan
    let environment: ExpressionEnvironment
    let tracker: ProgressTracker
    let batchSize: Int
    /// Policies by destination entity name.
    let policies: [String: EntityPolicy]
    /// Which destination tables the step carries from the source store (left alone by phases 1 and 2) and
    /// which it rebuilds.
    let changes: StorageChanges
    /// The step's entity mappings that carry objects, resolved once.
    let resolvedMappings: [ResolvedEntityMapping]

    /// Where the source version's tables are: the attached store's, or, for a later step of a pass, the
    /// tables the earlier step left in the store being built.
    let sourceTables: TableReferences
    /// What was counted of the source's tables after the copy (the first step of a pass only).
    let census: SourceCensus?

    init(
        connection: SQLiteConnection, pass: Int, plan: StepPlan, environment: ExpressionEnvironment,
        tracker: ProgressTracker,
        batchSize: Int, policies: [EntityPolicy] = [], sourceTables: TableReferences = .source,
        census: SourceCensus? = nil
    ) {
        self.sourceTables = sourceTables
        self.census = census
        var byDestination: [String: EntityPolicy] = [:]
        for policy in policies { byDestination[policy.destination] = policy }
        self.policies = byDestination
        self.connection = connection
        self.pass = pass
        self.source = plan.step.source
        self.destination = plan.step.destination
        self.sourceLayout = plan.sourceLayout
        self.destinationLayout = plan.destinationLayout
        self.mapping = plan.step.mapping
        self.keys = plan.keys
        self.resolvedMappings = plan.resolvedMappings
        self.changes = plan.changes
        self.environment = environment
        self.tracker = tracker
        self.batchSize = batchSize
    }

    /// Whether a to-one column can take the source column's keys as they are (see ``KeyPlan/canCopyLinks``).
    func canCopyLinks(
        _ relationship: Relationship, in destinationEntity: Entity, from sourceRelationship: Relationship,
        in sourceEntity: Entity
    ) -> Bool {
        keys.canCopyLinks(
            relationship, in: destinationEntity, from: sourceRelationship, in: sourceEntity, source: sourceLayout,
            destination: destinationLayout)
    }

    /// Compiles a mapping expression over objects of `entity` for a destination attribute (or a filter when
    /// `attribute` is nil): the plan's `checked` expression (``ResolvedEntityMapping``), checked once at planning;
    /// an expression the plan did not check is checked here.
    func compile(
        _ expression: ValueExpression, checked planned: CheckedExpression?, over entity: Entity,
        into attribute: Attribute?
    ) throws(RemodelError) -> CompiledSQL {
        compile(try check(expression, checked: planned, over: entity, into: attribute), over: entity)
    }

    /// Compiles a checked expression over objects of `entity`, aliased `s`.
    func compile(_ checked: CheckedExpression, over entity: Entity) -> CompiledSQL {
        ExpressionSQLCompiler(environment: environment).compile(checked, context: sourceSQL(over: entity))
    }

    /// Where the `$source` values of an object of `entity`, aliased `s`, are.
    func sourceSQL(over entity: Entity) -> SourceSQLContext {
        SourceSQLContext(layout: sourceLayout, entity: entity, tables: sourceTables, alias: "s")
    }

    /// A mapping expression as the plan checked it, or checked now when the plan did not.
    func check(
        _ expression: ValueExpression, checked planned: CheckedExpression?, over entity: Entity,
        into attribute: Attribute?
    ) throws(RemodelError) -> CheckedExpression {
        if let planned { return planned }
        let checker = ExpressionTypeChecker(model: source, entity: entity)
        do {
            let parsed = try ExpressionParser.parse(expression.text)
            if let attribute {
                return try checker.check(parsed, assignableTo: attribute.type, optional: attribute.isOptional)
            }
            return try checker.check(parsed)
        } catch {
            throw RemodelError(
                .invalidMapping, error.message, location: expression.location(atOffset: error.range.lowerBound),
                entity: entity.name, property: attribute?.name)
        }
    }
}
