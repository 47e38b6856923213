/// Where the tables of one store version are, as SQL: the real tables of an
/// attached store (`src."Book"`), or the temporary views that stand in for a
/// version a composed step passes through (`temp."_remodel_v2_Book"`).
struct TableReferences: Equatable, Sendable {
    /// The schema the tables or views are in.
    let schema: String
    /// What every table name is prefixed with.
    let prefix: String

    init(schema: String, prefix: String = "") {
        self.schema = schema
        self.prefix = prefix
    }

    /// The store being built.
    static let destination = TableReferences(schema: "main")
    /// The store being migrated, attached read-only.
    static let source = TableReferences(schema: "src")

    /// The qualified, quoted SQL name of a table of the layout.
    func callAsFunction(_ table: String) -> String {
        "\(schema).\(quoteIdentifier(prefix + table))"
    }

    /// Whether these are views rather than stored tables.
    var areViews: Bool { !prefix.isEmpty }
}
