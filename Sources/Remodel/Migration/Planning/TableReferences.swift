/// Where the tables of one store version are, as SQL: the tables of an attached store (`src."Book"`), of
/// the store being built (`main."Book"`), or, for a step that runs after another in the same pass, the
/// tables that step set aside (`main."_remodel_prior_Book"`) and views that give a carried table its
/// earlier names.
struct TableReferences: Equatable, Sendable {
    /// The schema the tables are in.
    let schema: String
    /// Tables found under another name, by layout name as SQLite compares names: the qualified, quoted SQL name.
    var elsewhere: [SQLName: String] = [:]

    init(schema: String, elsewhere: [SQLName: String] = [:]) {
        self.schema = schema
        self.elsewhere = elsewhere
    }

    /// The schema the store being migrated is attached as.
    static let sourceSchema = "src"

    /// The store being built.
    static let destination = TableReferences(schema: "main")
    /// The store being migrated, attached read-only.
    static let source = TableReferences(schema: sourceSchema)

    /// The qualified, quoted SQL name of a table of the layout.
    func callAsFunction(_ table: String) -> String {
        elsewhere[SQLName(table)] ?? "\(schema).\(quoteIdentifier(table))"
    }
}
