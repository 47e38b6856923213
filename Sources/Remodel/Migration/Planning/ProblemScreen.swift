/// Looks at the store being migrated to see which problems of the first
/// step's mapping can bite it: a new required attribute matters only when
/// there are objects to give it to; optional → required only when an object
/// has no value. Problems that cannot bite are dropped; those that do say how
/// many objects and which.
struct ProblemScreen {
    let connection: SQLiteConnection
    /// Where the step's source tables are: a store's, or the views of a version a pass goes through.
    let tables: TableReferences

    /// How many offending `_pk`s a message names.
    static let examples = 5

    func screen(_ mapping: MappingModel, source: ModelVersion) throws(RemodelError) -> MappingModel {
        try screen(mapping, layout: StoreLayout(version: source))
    }

    /// Screens with the source version's layout known already.
    func screen(_ mapping: MappingModel, layout: StoreLayout) throws(RemodelError) -> MappingModel {
        var screened = mapping
        for index in screened.entities.indices {
            let entityMapping = screened.entities[index]
            guard !entityMapping.problems.isEmpty, let sourceName = entityMapping.source,
                let table = layout.table(forEntity: sourceName)?.name
            else { continue }
            var kept: [MappingProblem] = []
            for problem in entityMapping.problems {
                let condition: String
                switch problem.condition {
                case .always:
                    kept.append(problem)
                    continue
                case .ifSourceObjectsExist:
                    condition = "1"
                case .ifNil(let attribute):
                    condition =
                        "\(quoteIdentifier(layout.columnName(of: attribute, in: sourceName) ?? attribute)) IS NULL"
                }
                let rows = try connection.rows(
                    "SELECT \(StoreColumn.pk) FROM \(tables(table)) WHERE \(StoreColumn.entity) = ? AND \(condition) ORDER BY \(StoreColumn.pk) LIMIT \(Self.examples + 1)",
                    [.text(sourceName)])
                guard !rows.isEmpty else { continue }
                let total = try connection.scalar(
                    "SELECT count(*) FROM \(tables(table)) WHERE \(StoreColumn.entity) = ? AND \(condition)",
                    [.text(sourceName)])
                let keys = rows.prefix(Self.examples).compactMap { $0[0].integerValue }.map(String.init).joined(
                    separator: ", ")
                let count = total?.integerValue ?? Int64(rows.count)
                var annotated = problem
                let objects = count == 1 ? "1 \(sourceName) object" : "\(count) \(sourceName) objects"
                annotated.message +=
                    " (this store has \(objects) it applies to: _pk \(keys)\(count > Int64(Self.examples) ? ", …" : ""))"
                kept.append(annotated)
            }
            screened.entities[index].problems = kept
        }
        return screened
    }
}
