import Foundation

/// Phase 3: checks the migrated store against every rule of the destination
/// model, in SQL, and reports the first offenders.
struct MigrationValidator {
    let connection: SQLiteConnection
    let version: ModelVersion
    let layout: StoreLayout
    /// Where the version's tables are: the store being built.
    let tables = TableReferences.destination
    /// The checks the step must run, when it carries tables (nil: every check).
    let scope: CheckScope?
    /// The pragmas of SQLite's own check of the store, run beside the model's rules (none: another step of
    /// the pass, or the check of the original file, covers it).
    let integrityPragmas: [String]
    /// The tables the step wrote: SQLite's foreign key check covers the app's tables among them and those
    /// whose parent table is among them, unless `checksWholeFile`.
    let writtenTables: [String]
    /// Whether the pass's store is checked as a whole (a hook or ``MigrationOptions/checksEverything``).
    let checksWholeFile: Bool
    /// The unique indexes the step built: SQLite found no duplicates for the constraints they prove.
    let provenUnique: [StoreLayout.Index]
    /// The caller's checks, each given the store on the validator's connection.
    let customValidations: [(SQLiteConnection) throws -> [ValidationFailure]]
    /// What each check weighs in the progress `report` gets.
    let weights: ValidationWeights
    /// Called with the rows checked so far, the rows to check, and the entity being checked.
    let report: (Int, Int, String?) throws(RemodelError) -> Void

    init(
        connection: SQLiteConnection, version: ModelVersion, layout: StoreLayout, scope: CheckScope? = nil,
        integrityPragmas: [String] = [],
        writtenTables: [String] = [], checksWholeFile: Bool = true, provenUnique: [StoreLayout.Index] = [],
        customValidations: [(SQLiteConnection) throws -> [ValidationFailure]] = [],
        weights: ValidationWeights = ValidationWeights(),
        report: @escaping (Int, Int, String?) throws(RemodelError) -> Void
    ) {
        self.connection = connection
        self.version = version
        self.layout = layout
        self.scope = scope
        self.integrityPragmas = integrityPragmas
        self.writtenTables = writtenTables
        self.checksWholeFile = checksWholeFile
        self.provenUnique = provenUnique
        self.customValidations = customValidations
        self.weights = weights
        self.report = report
    }

    /// How many offenders each check reports at most.
    static let offendersPerCheck = 5
    /// How many offenders the whole validation reports at most.
    static let offendersInAll = 20

    var limit: Int { Self.offendersPerCheck }
    /// The row checks of the entity being validated, run together in one scan of its table.
    let scan = TableScan()
    /// The store's indexes by first column, read when a check first asks.
    let indexedColumns = LeadingIndexColumns()
    /// The composite values' check, `remodel_composite_problem`.
    var compositeChecks: CompositeChecks { compositeCheckStorage.get { CompositeChecks(version: version) } }
    private let compositeCheckStorage = OnceValue<CompositeChecks>()

    func run() throws(RemodelError) -> [ValidationFailure] {
        try registerFunctions()
        var failures: [ValidationFailure] = []
        let entities = version.entities.filter { !$0.isAbstract }
        let units = weights.units(of: version, layout: layout, customValidations: customValidations.count)
        let total = units.total
        var completed = 0
        let ends = joinEnds().filter { scope?.needsJoinEnds($0.join.name) ?? true }
        // SQLite's check reads the file on a second connection beside the model's rules; probes alone run here.
        let storeChecks =
            integrityPragmas.isEmpty
            ? nil : ConcurrentStoreChecks(path: connection.path, probes: ends.map(\.probe), pragmas: integrityPragmas)
        defer { storeChecks?.stop() }
        for (offset, entity) in entities.enumerated() {
            if let scope, scope.untouched.contains(entity.name) {
                completed += units.entities[offset]
                continue
            }
            try report(completed, total, entity.name)
            if let table = layout.table(forEntity: entity.name)?.name {
                scan.begin(table: table, entity: entity.name)
                failures += try attributeFailures(of: entity)
                failures += try relationshipFailures(of: entity)
                failures += try scan.finish(connection, tables: tables, limit: limit)
            }
            failures += try uniquenessFailures(of: entity)
            completed += units.entities[offset]
            if failures.count >= Self.offendersInAll { return Array(failures.prefix(Self.offendersInAll)) }
        }
        try report(completed, total, nil)
        if let storeChecks {
            let results = try storeChecks.results()
            failures += try joinTableFailures(ends, found: results.answers)
            failures += integrityFailures(results.findings)
        } else {
            failures += try joinTableFailures(
                ends,
                found: try ends.map { (end) throws(RemodelError) -> Bool in try scan.answer(end.probe, connection) })
        }
        // Every step's: a row a step leaves dangling is named with that step, in one pass as step by step.
        failures += try foreignKeyFailures()
        completed += units.storeChecks
        try report(completed, total, nil)
        for validation in customValidations {
            do {
                failures += try validation(connection)
            } catch {
                failures.append(
                    ValidationFailure(
                        entity: "-", primaryKey: nil, property: nil, rule: .custom,
                        message: "custom validation failed: \(error)"))
            }
            completed += units.customValidation
            try report(completed, total, nil)
        }
        return Array(failures.prefix(Self.offendersInAll))
    }

    private func registerFunctions() throws(RemodelError) {
        if !version.composites.isEmpty { try compositeChecks.register(on: connection) }
        try connection.createFunction("remodel_matches", argumentCount: 2) { arguments in
            guard case .text(let text) = arguments[0], case .text(let pattern) = arguments[1] else { return .null }
            let expression = try NSRegularExpression(pattern: "^(?:" + pattern + ")$")
            let range = NSRange(text.startIndex..., in: text)
            return .integer(expression.firstMatch(in: text, range: range) == nil ? 0 : 1)
        }
    }

    /// The offenders of a check over the rows of one entity (`select` ends in `WHERE "_entity" = ? AND `;
    /// `parameters` starts with the entity's name): left to ``TableScan`` while it collects the entity's checks,
    /// which asks `probe` instead of its scan when there is one.
    func offenders(
        _ select: String, _ condition: String, _ parameters: [SQLiteValue], probeCondition: String? = nil,
        probe: TableScan.Probe? = nil,
        entity: String, property: String?, rule: MigrationRule, message: @escaping (SQLiteValue) -> String
    ) throws(RemodelError) -> [ValidationFailure] {
        if let scope, !scope.needs(entity: entity, property: property, rule: rule) { return [] }
        if scan.add(
            TableScan.Check(
                sql: select + condition, condition: condition, probeCondition: probeCondition, parameters: parameters,
                probe: probe,
                entity: entity, property: property, rule: rule, message: message))
        {
            return []
        }
        return try offenders(
            select + condition, parameters, entity: entity, property: property, rule: rule, message: message)
    }

    func offenders(
        _ sql: String, _ parameters: [SQLiteValue], entity: String, property: String?, rule: MigrationRule,
        message: (SQLiteValue) -> String
    ) throws(RemodelError) -> [ValidationFailure] {
        try connection.rows(sql + " LIMIT \(limit)", parameters).map { row in
            ValidationFailure(
                entity: entity, primaryKey: row[0].integerValue, property: property, rule: rule,
                message: message(row.count > 1 ? row[1] : .null))
        }
    }

    func kinds(of name: String) -> [String] { version.concreteKinds(of: name) }

}
