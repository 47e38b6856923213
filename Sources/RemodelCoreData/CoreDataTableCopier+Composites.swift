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
            let leaves = source.leaves.map { copied($0, problems: &problems) }
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
                guard !refused.isEmpty else { continue }
                let any = refused.joined(separator: " OR ")
                if column.sources.count == 1, Set(source.numbers).isSuperset(of: numbers) {
                    tests.append("(\(any))")
                } else {
                    tests.append("(\(entityTest(source.numbers)) AND (\(any)))")
                }
            }
        }
        return tests
    }
}
