/// Phase 1's count of the values a conversion, an expression or a policy turned into nil (DESIGN, Migration
/// item 12). After an entity mapping's objects are copied, one read of the rows it wrote finds, for each
/// watched attribute, the objects whose value is nil although every source value it was computed from is
/// non-nil; for a required attribute with a default, those holding the default where the expression gives
/// nil. Only those objects' source rows are looked up, so the count costs a read of what the step wrote.
struct NilValueCount {
    /// A destination attribute whose value can be nil where its source values are not.
    struct Watched {
        var attribute: String
        var column: String
        /// What computes it: an expression's text, or nil for an entity policy (Swift code).
        var expression: String?
        /// The source values it is computed from.
        var inputs: [CheckedExpression.Input]
        /// For a required attribute with a default: the default, which a nil becomes, and the expression, evaluated
        /// again where the default is found.
        var fallback: (value: SQLiteValue, expression: CompiledSQL)?
    }

    let context: StepContext
    let resolved: ResolvedEntityMapping

    /// The watched attributes' values that became nil, each counted with its first source object.
    func run(_ watched: [Watched]) throws(RemodelError) -> [DataLoss] {
        guard !watched.isEmpty else { return [] }
        let source = context.sourceSQL(over: resolved.sourceEntity)
        var conditions: [String] = []
        var prefilters: [String] = []
        var parameters: [SQLiteValue] = []
        var prefilterParameters: [SQLiteValue] = []
        for watch in watched {
            let column = "d.\(quoteIdentifier(watch.column))"
            let present = Self.present(watch.inputs, source: source)
            if let (value, expression) = watch.fallback {
                conditions.append("(\(column) IS ? AND (\(expression.sql)) IS NULL AND \(present))")
                parameters += [value] + expression.parameters
                prefilters.append("\(column) IS ?")
                prefilterParameters.append(value)
            } else {
                conditions.append("(\(column) IS NULL AND \(present))")
                prefilters.append("\(column) IS NULL")
            }
        }
        let (from, fromParameters) = rows()
        let inner =
            "SELECT s.\(StoreColumn.pk) AS pk\(conditions.enumerated().map { ", \($1) AS c\($0)" }.joined()) FROM \(from) AND (\(prefilters.joined(separator: " OR ")))"
        let totals = watched.indices.map { "sum(c\($0)), min(CASE WHEN c\($0) THEN pk END)" }.joined(separator: ", ")
        guard
            let row = try context.connection.rows(
                "SELECT \(totals) FROM (\(inner))", parameters + fromParameters + prefilterParameters
            ).first
        else { return [] }
        var losses: [DataLoss] = []
        for (index, watch) in watched.enumerated() {
            guard let count = row[2 * index].integerValue, count > 0 else { continue }
            let example = try row[2 * index + 1].integerValue.map { key throws(RemodelError) in
                DataLoss.Example(primaryKey: key, values: try values(of: watch.inputs, at: key, source: source))
            }
            var loss = DataLoss(
                sourceVersion: context.source.name, destinationVersion: context.destination.name,
                entity: resolved.destinationEntity.name, property: watch.attribute, count: Int(count))
            loss.cause = .becameNil(expression: watch.expression, example: example)
            losses.append(loss)
        }
        return losses
    }

    /// The rows the mapping wrote (`d`) beside the source rows they came from (`s`), up to an open `WHERE … `
    /// clause: the written table is read first (`CROSS JOIN` keeps that order), a source row only looked up for
    /// a row the caller's conditions keep.
    private func rows() -> (String, [SQLiteValue]) {
        let destination = "main.\(quoteIdentifier(resolved.destinationTable)) AS d"
        let source = "\(context.sourceTables(resolved.sourceTable)) AS s"
        let entities: [SQLiteValue] = [.text(resolved.destinationEntity.name), .text(resolved.sourceEntity.name)]
        let pk = StoreColumn.pk
        if context.keys.mode(ofDestinationTable: resolved.destinationTable) == .remapped {
            return (
                "\(quoteIdentifier(KeyPlan.keyTable)) AS k CROSS JOIN \(destination) ON d.\(pk) = k.destination_pk CROSS JOIN \(source) ON s.\(pk) = k.source_pk WHERE k.mapping = ? AND d.\(StoreColumn.entity) = ? AND s.\(StoreColumn.entity) = ?",
                [.integer(Int64(resolved.index))] + entities
            )
        }
        return (
            "\(destination) CROSS JOIN \(source) ON s.\(pk) = d.\(pk) WHERE d.\(StoreColumn.entity) = ? AND s.\(StoreColumn.entity) = ?",
            entities
        )
    }

    /// SQL that is true when every input of a source row `s` is non-nil.
    static func present(_ inputs: [CheckedExpression.Input], source: SourceSQLContext) -> String {
        guard !inputs.isEmpty else { return "1" }
        return inputs.map { "(\(sql(of: $0, source: source))) IS NOT NULL" }.joined(separator: " AND ")
    }

    /// The SQL of one input of a source row.
    static func sql(of input: CheckedExpression.Input, source: SourceSQLContext) -> String {
        input.isCount
            ? source.countSQL(of: input.name, through: input.path)
            : source.attributeSQL(input.name, through: input.path)
    }

    /// The inputs' values of the source object `key`, as an example shows them.
    private func values(of inputs: [CheckedExpression.Input], at key: Int64, source: SourceSQLContext)
        throws(RemodelError) -> String
    {
        try Self.exampleValues(
            of: inputs, at: key, source: source, table: context.sourceTables(resolved.sourceTable),
            on: context.connection)
    }

    /// The inputs' values of the source object `key` of `table` (aliased `s` in `source`), as an example shows them.
    static func exampleValues(
        of inputs: [CheckedExpression.Input], at key: Int64, source: SourceSQLContext, table: String,
        on connection: SQLiteConnection
    ) throws(RemodelError) -> String {
        guard !inputs.isEmpty else { return "" }
        let select =
            "SELECT \(inputs.map { sql(of: $0, source: source) }.joined(separator: ", ")) FROM \(table) AS s WHERE s.\(StoreColumn.pk) = ?"
        let row = try connection.rows(select, [.integer(key)]).first ?? []
        return DataLoss.Example.describe(zip(inputs, row).map { ($0.text, $1) })
    }
}
