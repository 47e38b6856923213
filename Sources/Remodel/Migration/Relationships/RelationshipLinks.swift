/// The links of one relationship in a store as rows `(a, b, position)`:
/// `a` is the `_pk` of the object that has the relationship, `b` the `_pk`
/// of a related object, `position` its place in an ordered relationship (or NULL).
enum RelationshipLinks {
    /// The link query, or nil when the relationship has no storage.
    static func sql(of relationship: String, in entity: String, layout: StoreLayout, tables: TableReferences) -> String?
    {
        if relationship == RelationshipMapping.sourceObject {
            // Every object linked to itself: the owner's entity is chosen by the caller's join.
            return layout.table(forEntity: entity).map {
                "SELECT \(StoreColumn.pk) AS a, \(StoreColumn.pk) AS b, NULL AS position FROM \(tables($0.name))"
            }
        }
        guard let storage = layout.storage(of: relationship, in: entity) else { return nil }
        switch storage {
        case .column(let table, let column):
            let name = quoteIdentifier(column)
            return
                "SELECT \(StoreColumn.pk) AS a, \(name) AS b, NULL AS position FROM \(tables(table)) WHERE \(name) IS NOT NULL"
        case .inverseColumn(let table, let column, let orderColumn):
            let name = quoteIdentifier(column)
            let position = orderColumn.map(quoteIdentifier) ?? "NULL"
            return
                "SELECT \(name) AS a, \(StoreColumn.pk) AS b, \(position) AS position FROM \(tables(table)) WHERE \(name) IS NOT NULL"
        case .joinTable(let name, let ownerIsSource, let orderColumn):
            let position = orderColumn.map(quoteIdentifier) ?? "NULL"
            let (a, b) = ownerIsSource ? ("source", "destination") : ("destination", "source")
            return "SELECT \"\(a)\" AS a, \"\(b)\" AS b, \(position) AS position FROM \(tables(name))"
        }
    }
}
