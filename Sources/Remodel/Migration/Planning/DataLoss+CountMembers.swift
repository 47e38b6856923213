extension DataLoss {
    /// The count of a dropped composite member's values (`property` is `attribute.member`), or nil when `property`
    /// names no composite member of the entity.
    func countedMember(on connection: SQLiteConnection, layout: StoreLayout, tables: TableReferences)
        throws(RemodelError) -> Int?
    {
        guard let property, property.contains("."), let entity = layout.version.entity(named: self.entity),
            let table = layout.table(forEntity: self.entity)?.name,
            let key = layout.key(named: property, in: entity), !key.member.isEmpty
        else { return nil }
        return try connection.scalar(
            "SELECT count(*) FROM \(tables(table)) WHERE \(StoreColumn.entity) = ? AND \(key.sql) IS NOT NULL",
            [.text(self.entity)]
        )?.integerValue.map(Int.init)
    }
}
