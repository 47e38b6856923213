import Foundation

/// Phase 3: the checks of attribute values (required, storage type, bounds, regular expressions).
extension MigrationValidator {
    func attributeFailures(of entity: Entity) throws(RemodelError) -> [ValidationFailure] {
        guard let table = layout.table(forEntity: entity.name) else { return [] }
        let from = "SELECT \(StoreColumn.pk), %@ FROM \(tables(table.name)) WHERE \(StoreColumn.entity) = ? AND "
        var failures: [ValidationFailure] = []
        for attribute in version.attributes(of: entity) where attribute.isStored {
            // A value carried as it is under the same rules needs none of them: no SQL is even written for it.
            if let scope, scope.rules(entity: entity.name, property: attribute.name).isEmpty { continue }
            guard let stored = layout.column(forAttribute: attribute.name, in: entity.name) else { continue }
            let column = quoteIdentifier(stored.name)
            let select = from.replacingEvery("%@", with: column)
            let entityName: [SQLiteValue] = [.text(entity.name)]
            if !attribute.isOptional {
                failures += try offenders(
                    select, "\(column) IS NULL", entityName, entity: entity.name, property: attribute.name,
                    rule: .required
                ) { _ in
                    "a value is required, but it is nil; give it a default in the model or a value in the mapping"
                }
            }
            if let check = storageCheck(attribute, column: column) {
                let wider = stored.declaredType == "INTEGER" ? integerProbe(attribute, column: column) : nil
                failures += try offenders(
                    select, check.condition, entityName, probeCondition: wider, entity: entity.name,
                    property: attribute.name, rule: check.rule
                ) { value in "\(check.message) (found \(value))" }
            }
            if attribute.type == .composite {
                let key = CompositeChecks.key(entity: entity.name, attribute: attribute.name)
                failures += try offenders(
                    select, "\(column) IS NOT NULL AND \(CompositeChecks.functionName)(\(column), ?) IS NOT NULL",
                    entityName + [.text(key)], entity: entity.name, property: attribute.name, rule: .type
                ) { [compositeChecks] value in
                    "the composite value does not fit composite \(attribute.compositeName ?? ""): \(compositeChecks.problem(value, key: key) ?? "it is damaged")"
                }
            }
            failures += try boundFailures(attribute, column: column, select: select, entity: entity)
            if let pattern = attribute.regularExpression, !pattern.isEmpty,
                attribute.type == .string || attribute.type == .uri
            {
                failures += try offenders(
                    select, "\(column) IS NOT NULL AND remodel_matches(\(column), ?) = 0",
                    entityName + [.text(pattern)],
                    entity: entity.name, property: attribute.name, rule: .regularExpression
                ) { value in "\(value) does not match the regular expression \(pattern)" }
            }
        }
        return failures
    }

    /// The condition a value of the wrong storage class meets. SQLite orders values of different
    /// classes NULL < numbers < text < blobs, and no column affinity converts the text `''` or the blob
    /// `x''`, so comparisons with them tell the classes apart without calling `typeof()` on every row
    /// (a function call per row and column, the largest cost of a table's scan). Only integer against
    /// real needs `typeof()`.
    func storageCheck(_ attribute: Attribute, column: String) -> (
        condition: String, rule: MigrationRule, message: String
    )? {
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            guard let range = attribute.type.integerRange else { return nil }
            // Every SQLite integer is a 64-bit one: only narrower types need the range.
            let outside =
                range == Int64.min...Int64.max
                ? "" : " OR \(column) < \(range.lowerBound) OR \(column) > \(range.upperBound)"
            return (
                "\(column) IS NOT NULL AND (typeof(\(column)) <> 'integer'\(outside))", .type,
                "the value is not an \(attribute.type.rawValue)"
            )
        case .boolean:
            return ("\(column) IS NOT NULL AND \(column) NOT IN (0, 1)", .type, "the value is not a Boolean (0 or 1)")
        case .double, .float, .date:
            // Text and blobs sort after every number.
            return ("\(column) >= ''", .type, "the value is not a number")
        case .string, .uri, .decimal, .uuid:
            // Numbers sort before every text, blobs after.
            return ("(\(column) < '' OR \(column) >= x'')", .type, "the value is not text")
        default:
            return nil
        }
    }

    /// For an integer attribute in a column of a stored table with INTEGER affinity: a condition every
    /// value of the wrong storage class meets, without `typeof()`, for the scan that asks whether any row
    /// fails (the check's own condition then names the offenders, so a value this also meets costs only
    /// that query). SQLite stores a real written to such a column as an integer when it is one between
    /// the smallest and largest 64-bit integers, exclusive: so a real still there either differs from its
    /// integer part (a fraction, or beyond the 64-bit range, where the cast stops at the bound) or is
    /// -2^63 itself; text and blobs sort after every number.
    func integerProbe(_ attribute: Attribute, column: String) -> String? {
        guard let range = attribute.type.integerRange else { return nil }
        let outside =
            range == Int64.min...Int64.max
            ? "" : " OR \(column) < \(range.lowerBound) OR \(column) > \(range.upperBound)"
        return
            "\(column) >= '' OR \(column) <> CAST(\(column) AS INTEGER) OR \(column) <= -9223372036854775808\(outside)"
    }

    func boundFailures(_ attribute: Attribute, column: String, select: String, entity: Entity) throws(RemodelError)
        -> [ValidationFailure]
    {
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
        for (bound, comparison, word) in [
            (attribute.minValue, "<", "less than the minimum"), (attribute.maxValue, ">", "more than the maximum"),
        ] {
            guard let text = bound, let limitValue = Double(text.trimmingSpaces()) else { continue }
            let shown = unit.isEmpty ? text : "\(text) \(unit)"
            failures += try offenders(
                select, "\(column) IS NOT NULL AND \(measure) \(comparison) ?",
                [.text(entity.name), .real(limitValue + offset)],
                entity: entity.name, property: attribute.name, rule: comparison == "<" ? .minimum : .maximum
            ) { value in "\(value) is \(word) \(shown)" }
        }
        return failures
    }
}
