import Foundation

/// Phase 3: checks the migrated store against every rule of the destination
/// model, in SQL, and reports the first offenders.
struct MigrationValidator {
    let connection: SQLiteConnection
    let version: ModelVersion
    let layout: StoreLayout
    /// Where the version's tables are: the store being built, or the views of a version a composed step passes through.
    var tables: TableReferences = .destination
    /// SQLite's own check of the store, after the model's rules.
    var integrityCheck = MigrationOptions.IntegrityCheck.quick
    let customValidations: [CustomValidation]
    let report: (Int, Int, String?) throws(RemodelError) -> Void

    /// How many offenders each check reports at most.
    static let offendersPerCheck = 5
    /// How many offenders the whole validation reports at most.
    static let offendersInAll = 20

    private var limit: Int { Self.offendersPerCheck }
    /// The row checks of the entity being validated, run together in one scan of its table.
    let scan = TableScan()

    func run() throws(RemodelError) -> [ValidationFailure] {
        try registerFunctions()
        var failures: [ValidationFailure] = []
        let entities = version.entities.filter { !$0.isAbstract }
        let total = entities.count + 2 + customValidations.count
        var completed = 0
        for entity in entities {
            try report(completed, total, entity.name)
            if let table = layout.table(forEntity: entity.name)?.name {
                scan.begin(table: table, entity: entity.name)
                failures += try attributeFailures(of: entity)
                failures += try relationshipFailures(of: entity)
                failures += try scan.finish(connection, tables: tables, limit: limit)
            }
            failures += try uniquenessFailures(of: entity)
            completed += 1
            if failures.count >= Self.offendersInAll { return Array(failures.prefix(Self.offendersInAll)) }
        }
        try report(completed, total, nil)
        // Views hold nothing of their own for SQLite to check.
        if !tables.areViews { failures += try integrityFailures() }
        completed += 2
        for validation in customValidations {
            do {
                failures += try validation(connection)
            } catch {
                failures.append(ValidationFailure(entity: "-", primaryKey: nil, property: nil, rule: "custom", message: "custom validation failed: \(error)"))
            }
            completed += 1
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
    /// `parameters` starts with the entity's name): left to ``TableScan`` while it collects the entity's checks.
    private func offenders(
        _ select: String, _ condition: String, _ parameters: [SQLiteValue], entity: String, property: String?, rule: String,
        message: @escaping (SQLiteValue) -> String
    ) throws(RemodelError) -> [ValidationFailure] {
        if scan.add(
            TableScan.Check(
                sql: select + condition, condition: condition, parameters: parameters, entity: entity, property: property, rule: rule,
                message: message))
        {
            return []
        }
        return try offenders(select + condition, parameters, entity: entity, property: property, rule: rule, message: message)
    }

    private func offenders(
        _ sql: String, _ parameters: [SQLiteValue], entity: String, property: String?, rule: String,
        message: (SQLiteValue) -> String
    ) throws(RemodelError) -> [ValidationFailure] {
        try connection.rows(sql + " LIMIT \(limit)", parameters).map { row in
            ValidationFailure(entity: entity, primaryKey: row[0].integerValue, property: property, rule: rule, message: message(row.count > 1 ? row[1] : .null))
        }
    }

    // MARK: - Attributes

    private func attributeFailures(of entity: Entity) throws(RemodelError) -> [ValidationFailure] {
        guard let table = layout.table(forEntity: entity.name) else { return [] }
        let from = "SELECT \"_pk\", %@ FROM \(tables(table.name)) WHERE \"_entity\" = ? AND "
        var failures: [ValidationFailure] = []
        for attribute in version.attributes(of: entity) where attribute.isStored {
            let column = quoteIdentifier(attribute.name)
            let select = from.replacingOccurrences(of: "%@", with: column)
            let entityName: [SQLiteValue] = [.text(entity.name)]
            if !attribute.isOptional {
                failures += try offenders(select, "\(column) IS NULL", entityName, entity: entity.name, property: attribute.name, rule: "required") { _ in
                    "a value is required, but it is nil; give it a default in the model or a value in the mapping"
                }
            }
            if let check = storageCheck(attribute, column: column) {
                failures += try offenders(select, check.condition, entityName, entity: entity.name, property: attribute.name, rule: check.rule) { value in
                    "\(check.message) (found \(value))"
                }
            }
            failures += try boundFailures(attribute, column: column, select: select, entity: entity)
            if let pattern = attribute.regularExpression, !pattern.isEmpty, attribute.type == .string || attribute.type == .uri {
                failures += try offenders(
                    select, "\(column) IS NOT NULL AND remodel_matches(\(column), ?) = 0", entityName + [.text(pattern)],
                    entity: entity.name, property: attribute.name, rule: "regular-expression"
                ) { value in "\(value) does not match the regular expression \(pattern)" }
            }
        }
        return failures
    }

    private func storageCheck(_ attribute: Attribute, column: String) -> (condition: String, rule: String, message: String)? {
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            guard let range = attribute.type.integerRange else { return nil }
            return (
                "\(column) IS NOT NULL AND (typeof(\(column)) <> 'integer' OR \(column) < \(range.lowerBound) OR \(column) > \(range.upperBound))",
                "type", "the value is not an \(attribute.type.rawValue)"
            )
        case .boolean:
            return ("\(column) IS NOT NULL AND \(column) NOT IN (0, 1)", "type", "the value is not a Boolean (0 or 1)")
        case .double, .float, .date:
            return ("\(column) IS NOT NULL AND typeof(\(column)) NOT IN ('real', 'integer')", "type", "the value is not a number")
        case .string, .uri, .decimal, .uuid:
            return ("\(column) IS NOT NULL AND typeof(\(column)) <> 'text'", "type", "the value is not text")
        default:
            return nil
        }
    }

    private func boundFailures(_ attribute: Attribute, column: String, select: String, entity: Entity) throws(RemodelError) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        let measure: String
        let unit: String
        switch attribute.type {
        case .string, .uri:
            measure = "length(\(column))"
            unit = "characters"
        case .binary:
            measure = "length(\(column))"
            unit = "bytes"
        case .decimal:
            measure = "CAST(\(column) AS REAL)"
            unit = ""
        default:
            measure = column
            unit = ""
        }
        let offset = attribute.type == .date ? ModelDefaultValue.referenceDateOffset : 0
        for (bound, comparison, word) in [(attribute.minValue, "<", "less than the minimum"), (attribute.maxValue, ">", "more than the maximum")] {
            guard let text = bound, let limitValue = Double(text.trimmingCharacters(in: .whitespaces)) else { continue }
            let shown = unit.isEmpty ? text : "\(text) \(unit)"
            failures += try offenders(
                select, "\(column) IS NOT NULL AND \(measure) \(comparison) ?", [.text(entity.name), .real(limitValue + offset)],
                entity: entity.name, property: attribute.name, rule: comparison == "<" ? "minimum" : "maximum"
            ) { value in "\(value) is \(word) \(shown)" }
        }
        return failures
    }

    // MARK: - Relationships

    private func relationshipFailures(of entity: Entity) throws(RemodelError) -> [ValidationFailure] {
        guard let table = layout.table(forEntity: entity.name)?.name else { return [] }
        var failures: [ValidationFailure] = []
        for relationship in version.relationships(of: entity) where !relationship.isTransient {
            guard let storage = layout.storage(of: relationship.name, in: entity.name) else { continue }
            let base = "SELECT o.\"_pk\" FROM \(tables(table)) AS o WHERE o.\"_entity\" = ? AND "
            if case .column(_, let column) = storage {
                let name = quoteIdentifier(column)
                if !relationship.isOptional {
                    failures += try offenders(base, "o.\(name) IS NULL", [.text(entity.name)], entity: entity.name, property: relationship.name, rule: "required") { _ in
                        "a related object is required, but there is none"
                    }
                }
                if let target = relationship.destinationEntity, let targetTable = layout.table(forEntity: target)?.name {
                    var parameters: [SQLiteValue] = [.text(entity.name)]
                    let kinds = placeholders(kinds(of: target), &parameters)
                    failures += try offenders(
                        "SELECT o.\"_pk\", o.\(name) FROM \(tables(table)) AS o WHERE o.\"_entity\" = ? AND ",
                        "o.\(name) IS NOT NULL AND o.\(name) NOT IN (SELECT \"_pk\" FROM \(tables(targetTable)) WHERE \"_entity\" IN (\(kinds)))",
                        parameters, entity: entity.name, property: relationship.name, rule: "dangling"
                    ) { value in "points to _pk \(value), which is not a \(target)" }
                }
            }
            guard relationship.isToMany, let count = countSQL(storage) else { continue }
            if let minimum = relationship.minCount, minimum > 0 {
                failures += try offenders(base, "\(count) < ?", [.text(entity.name), .integer(Int64(minimum))], entity: entity.name, property: relationship.name, rule: "minimum-count") { _ in
                    "holds fewer than \(minimum) objects"
                }
            }
            if let maximum = relationship.maxCount, maximum > 0 {
                failures += try offenders(base, "\(count) > ?", [.text(entity.name), .integer(Int64(maximum))], entity: entity.name, property: relationship.name, rule: "maximum-count") { _ in
                    "holds more than \(maximum) objects"
                }
            }
        }
        return failures
    }

    private func countSQL(_ storage: StoreLayout.RelationshipStorage) -> String? {
        switch storage {
        case .inverseColumn(let table, let column, _):
            return "(SELECT count(*) FROM \(tables(table)) AS c WHERE c.\(quoteIdentifier(column)) = o.\"_pk\")"
        case .joinTable(let name, let ownerIsSource, _):
            return "(SELECT count(*) FROM \(tables(name)) AS c WHERE c.\"\(ownerIsSource ? "source" : "destination")\" = o.\"_pk\")"
        case .column:
            return nil
        }
    }

    private func kinds(of name: String) -> [String] {
        guard let entity = version.entity(named: name) else { return [] }
        return version.hierarchy(of: entity).filter { !$0.isAbstract }.map(\.name)
    }

    private func placeholders(_ values: [String], _ parameters: inout [SQLiteValue]) -> String {
        parameters += values.map(SQLiteValue.text)
        return values.isEmpty ? "NULL" : Array(repeating: "?", count: values.count).joined(separator: ", ")
    }

    // MARK: - Uniqueness and integrity

    private func uniquenessFailures(of entity: Entity) throws(RemodelError) -> [ValidationFailure] {
        guard let table = layout.table(forEntity: entity.name)?.name else { return [] }
        var failures: [ValidationFailure] = []
        for constraint in entity.uniquenessConstraints {
            let columns = constraint.properties.compactMap { property -> String? in
                if layout.column(forAttribute: property, in: entity.name) != nil { return property }
                if case .column(_, let column)? = layout.storage(of: property, in: entity.name) { return column }
                return nil
            }
            guard !columns.isEmpty, columns.count == constraint.properties.count else { continue }
            var parameters: [SQLiteValue] = []
            let kinds = placeholders(kinds(of: entity.name), &parameters)
            let list = columns.map(quoteIdentifier).joined(separator: ", ")
            let notNull = columns.map { "\(quoteIdentifier($0)) IS NOT NULL" }.joined(separator: " AND ")
            let names = constraint.properties.joined(separator: ", ")
            failures += try offenders(
                "SELECT max(\"_pk\"), min(\"_pk\") FROM \(tables(table)) WHERE \"_entity\" IN (\(kinds)) AND \(notNull) GROUP BY \(list) HAVING count(*) > 1",
                parameters, entity: entity.name, property: constraint.properties.first, rule: "unique"
            ) { first in "has the same (\(names)) as _pk \(first); the uniqueness constraint on (\(names)) does not allow it" }
        }
        return failures
    }

    private func integrityFailures() throws(RemodelError) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for row in try connection.rows(integrityCheck.pragma) {
            guard case .text(let text) = row[0], text != "ok" else { continue }
            failures.append(ValidationFailure(entity: "-", primaryKey: nil, property: nil, rule: "integrity-check", message: text))
        }
        for row in try connection.rows("PRAGMA main.foreign_key_check") {
            failures.append(
                ValidationFailure(
                    entity: "\(row[0])", primaryKey: row[1].integerValue, property: nil, rule: "foreign-key-check",
                    message: "references a missing row of \(row[2])"))
        }
        return failures
    }
}

/// Runs the row checks of one entity as one scan of its table instead of one scan each: a first query
/// asks, for every check at once, whether any row fails it; only the checks that some row fails then
/// run on their own to name their first offenders, so the failures are exactly those of running every
/// check by itself, in the same order.
final class TableScan {
    struct Check {
        var sql: String
        var condition: String
        /// The entity's name, then the condition's own parameters.
        var parameters: [SQLiteValue]
        var entity: String
        var property: String?
        var rule: String
        var message: (SQLiteValue) -> String
    }

    /// Conditions per probe query, well under SQLite's limits on result columns and expression size.
    static let checksPerProbe = 100

    private var table: String?
    private var entity = ""
    private var checks: [Check] = []

    /// Starts collecting the checks of `entity`, whose rows are in `table`.
    func begin(table: String, entity: String) {
        self.table = table
        self.entity = entity
        checks = []
    }

    /// Takes a check while collecting; `false` when it must run at once.
    func add(_ check: Check) -> Bool {
        guard table != nil, check.entity == entity, check.parameters.first == .text(entity) else { return false }
        checks.append(check)
        return true
    }

    /// Stops collecting and returns the offenders of the checks that some row fails.
    func finish(_ connection: SQLiteConnection, tables: TableReferences, limit: Int) throws(RemodelError) -> [ValidationFailure] {
        guard let table else { return [] }
        self.table = nil
        defer { checks = [] }
        var failing: [Check] = []
        var start = 0
        while start < checks.count {
            let group = checks[start..<min(start + Self.checksPerProbe, checks.count)]
            start += Self.checksPerProbe
            let columns = group.map { "max(CASE WHEN \($0.condition) THEN 1 END)" }.joined(separator: ", ")
            let parameters = group.flatMap { $0.parameters.dropFirst() } + [.text(entity)]
            guard let row = try connection.rows(
                "SELECT \(columns) FROM \(tables(table)) AS o WHERE o.\"_entity\" = ?", parameters
            ).first else { continue }
            for (check, value) in zip(group, row) where value == .integer(1) {
                failing.append(check)
            }
        }
        var failures: [ValidationFailure] = []
        for check in failing {
            failures += try connection.rows(check.sql + " LIMIT \(limit)", check.parameters).map { row in
                ValidationFailure(
                    entity: check.entity, primaryKey: row[0].integerValue, property: check.property, rule: check.rule,
                    message: check.message(row.count > 1 ? row[1] : .null))
            }
        }
        return failures
    }
}
