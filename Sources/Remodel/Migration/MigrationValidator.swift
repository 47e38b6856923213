import Foundation

/// Phase 3: checks the migrated store against every rule of the destination
/// model, in SQL, and reports the first offenders.
struct MigrationValidator {
    let connection: SQLiteConnection
    let version: ModelVersion
    let layout: StoreLayout
    /// Where the version's tables are: the store being built, or the views of a version a composed step passes through.
    var tables: TableReferences = .destination
    /// Checks left to a later version's (for a version a composed pass goes through).
    var implied: ImpliedChecks?
    /// The checks the pass must run, when it carries tables (nil: every check).
    var scope: CheckScope?
    /// SQLite's own check of the store, after the model's rules.
    var integrityCheck = MigrationOptions.IntegrityCheck.quick
    /// The tables the step wrote, for ``MigrationOptions/IntegrityCheck/writtenTables`` or when the whole
    /// file is not to be checked.
    var writtenTables: [String] = []
    /// Whether SQLite's check reads the whole file (else the schema and `writtenTables`).
    var checksWholeFile = true
    /// The unique indexes the step built: SQLite found no duplicates for the constraints they prove.
    var provenUnique: [StoreLayout.Index] = []
    /// The caller's checks, each given the store on the validator's connection.
    let customValidations: [(SQLiteConnection) throws -> [ValidationFailure]]
    /// What each check weighs in the progress `report` gets.
    var weights = ValidationWeights()
    /// Called with the rows checked so far, the rows to check, and the entity being checked.
    let report: (Int, Int, String?) throws(RemodelError) -> Void

    /// How many offenders each check reports at most.
    static let offendersPerCheck = 5
    /// How many offenders the whole validation reports at most.
    static let offendersInAll = 20

    var limit: Int { Self.offendersPerCheck }
    /// The row checks of the entity being validated, run together in one scan of its table.
    let scan = TableScan()

    func run() throws(RemodelError) -> [ValidationFailure] {
        try registerFunctions()
        var failures: [ValidationFailure] = []
        let entities = version.entities.filter { !$0.isAbstract }
        let units = weights.units(of: version, layout: layout, customValidations: customValidations.count)
        let total = units.total
        var completed = 0
        let ends = joinEnds().filter { scope?.needsJoinEnds($0.join.name) ?? true }
        // Views hold nothing of their own for SQLite to check, and no second connection would see them.
        let storeChecks = tables.areViews
            ? nil
            : ConcurrentStoreChecks(
                path: connection.path, probes: ends.map(\.probe), pragmas: integrityCheck.pragmas(writtenTables: writtenTables, wholeFile: checksWholeFile))
        defer { storeChecks?.stop() }
        for (offset, entity) in entities.enumerated() {
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
            failures += try integrityFailures(results.findings)
        } else if implied?.contains(entity: "-", property: nil, rule: "dangling") != true {
            // A version passed through leaves its links to the written step (see ImpliedChecks).
            failures += try joinTableFailures(ends, found: try ends.map { (end) throws(RemodelError) -> Bool in try scan.answer(end.probe, connection) })
        }
        completed += units.storeChecks
        try report(completed, total, nil)
        for validation in customValidations {
            do {
                failures += try validation(connection)
            } catch {
                failures.append(ValidationFailure(entity: "-", primaryKey: nil, property: nil, rule: "custom", message: "custom validation failed: \(error)"))
            }
            completed += units.customValidation
            try report(completed, total, nil)
        }
        return Array(failures.prefix(Self.offendersInAll))
    }

    private func registerFunctions() throws(RemodelError) {
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
        _ select: String, _ condition: String, _ parameters: [SQLiteValue], probeCondition: String? = nil, probe: TableScan.Probe? = nil,
        entity: String, property: String?, rule: String, message: @escaping (SQLiteValue) -> String
    ) throws(RemodelError) -> [ValidationFailure] {
        if implied?.contains(entity: entity, property: property, rule: rule) == true { return [] }
        if let scope, !scope.needs(entity: entity, property: property, rule: rule) { return [] }
        if scan.add(
            TableScan.Check(
                sql: select + condition, condition: condition, probeCondition: probeCondition, parameters: parameters, probe: probe,
                entity: entity, property: property, rule: rule, message: message))
        {
            return []
        }
        return try offenders(select + condition, parameters, entity: entity, property: property, rule: rule, message: message)
    }

    func offenders(
        _ sql: String, _ parameters: [SQLiteValue], entity: String, property: String?, rule: String,
        message: (SQLiteValue) -> String
    ) throws(RemodelError) -> [ValidationFailure] {
        try connection.rows(sql + " LIMIT \(limit)", parameters).map { row in
            ValidationFailure(entity: entity, primaryKey: row[0].integerValue, property: property, rule: rule, message: message(row.count > 1 ? row[1] : .null))
        }
    }

    func kinds(of name: String) -> [String] {
        guard let entity = version.entity(named: name) else { return [] }
        return version.hierarchy(of: entity).filter { !$0.isAbstract }.map(\.name)
    }

}
