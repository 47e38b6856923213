import Remodel

/// Composite attributes in the copy: each object's leaf columns, checked one by one as any column is (a refused
/// leaf is named by its key path, `place.geo.lat`), joined into the composite's JSON object by
/// `remodel_core_data_composite` (``CoreDataComposites``).
extension CoreDataTableCopier {
    /// The SQL of one composite column for a row `s`, with the checks of its leaves when `problems` records them.
    static func expression(
        _ column: CoreDataMapping.CompositeColumn, allNumbers: [Int64], problems: inout Problems?
    ) -> String {
        func built(_ source: CoreDataMapping.CompositeColumn.Source) -> String {
            let checks = memberChecks(source)
            let leaves = source.leaves.map { leaf -> String in
                var sql = copied(leaf, problems: &problems)
                for member in checks where member.leaf == leaf {
                    guard var list = problems else { continue }
                    list.append((leaf, member.expected))
                    problems = list
                    sql = CoreDataValues.Check.refuse(when: member.refused).guarding(
                        sql, refusal: CoreDataRefusal.call(Int64(list.count - 1)))
                }
                return sql
            }
            return "\(CoreDataComposites.function)(\(([quoteLiteral(source.key)] + leaves).joined(separator: ", ")))"
        }
        if column.sources.count == 1, let only = column.sources.first, Set(only.numbers).isSuperset(of: allNumbers) {
            return built(only)
        }
        let branches = column.sources.map { "WHEN \(entityTest($0.numbers)) THEN \(built($0))" }
        return "CASE \(branches.joined(separator: " ")) END"
    }

    /// The tests of ``problem(_:)`` for the leaves of the table's composite columns, each where the copy makes it.
    static func compositeProblems(_ table: CoreDataMapping.Table) -> [String] {
        let numbers = table.entityByNumber.keys.sorted()
        var tests: [String] = []
        for column in table.composites {
            for source in column.sources {
                let refused = source.leaves.compactMap { leaf -> String? in
                    switch value(leaf).check {
                    case .refuse(let condition)?: return "(\(condition))"
                    case .accept(let condition)?: return "((\(condition)) IS NOT 1)"
                    case nil: return nil
                    }
                }
                let all = refused + memberChecks(source).map { "(\($0.refused))" }
                guard !all.isEmpty else { continue }
                let any = all.joined(separator: " OR ")
                if column.sources.count == 1, Set(source.numbers).isSuperset(of: numbers) {
                    tests.append("(\(any))")
                } else {
                    tests.append("(\(entityTest(source.numbers)) AND (\(any)))")
                }
            }
        }
        return tests
    }

    /// The checks of a composite's required members, beyond each leaf's own value: a required member (a leaf, or
    /// a nested composite such as `place.geo`) must have a value wherever the composite around it has one. Core
    /// Data refuses to save an object without, but a batch update or another program writes what it likes, and
    /// imported, such a value is one the new store's own export refuses. Each check is the leaf it is told of (a
    /// nested composite's first), the SQL true for a row `s` it refuses, and what the leaf must be.
    static func memberChecks(_ source: CoreDataMapping.CompositeColumn.Source) -> [(
        leaf: CoreDataMapping.Source, refused: String, expected: String
    )] {
        func raw(_ leaf: CoreDataMapping.Source) -> String { "s.\(quoteIdentifier(leaf.column))" }
        func under(_ path: String) -> [CoreDataMapping.Source] {
            source.leaves.filter { $0.property.hasPrefix(path + ".") }
        }
        func around(_ path: String) -> String { String(path[..<(path.lastIndex(of: ".") ?? path.endIndex)]) }
        func anyValue(_ leaves: [CoreDataMapping.Source]) -> String {
            leaves.map { "\(raw($0)) IS NOT NULL" }.joined(separator: " OR ")
        }
        var checks: [(leaf: CoreDataMapping.Source, refused: String, expected: String)] = []
        for leaf in source.leaves where !leaf.isOptional {
            let composite = around(leaf.property)
            let others = under(composite).filter { $0.property != leaf.property }
            guard !others.isEmpty else { continue }
            checks.append(
                (
                    leaf, "\(raw(leaf)) IS NULL AND (\(anyValue(others)))",
                    "a value wherever \(composite) has one (\(leaf.property) is required)"
                ))
        }
        for path in source.requiredComposites {
            let inside = under(path)
            let others = under(around(path)).filter { !$0.property.hasPrefix(path + ".") }
            guard let first = inside.first, !others.isEmpty else { continue }
            let empty = inside.map { "\(raw($0)) IS NULL" }.joined(separator: " AND ")
            checks.append(
                (
                    first, "(\(empty)) AND (\(anyValue(others)))",
                    "a value wherever \(around(path)) has one (\(path) is required)"
                ))
        }
        return checks
    }
}
