/// Reads every stored value the export would have to re-encode (composites) before a byte of the export is
/// written: a damaged one refuses the whole export, naming the object, so no command ever prints part of a
/// document, or an invalid one.
enum StoredValueCheck {
    /// Refuses the store when a composite value of an object the export writes is not what its composite
    /// defines (not a JSON object, a member of the wrong type, a member the composite lacks).
    static func checkComposites(layout: StoreLayout, on connection: SQLiteConnection, path: String)
        throws(RemodelError)
    {
        for entity in layout.concreteEntitiesByName {
            guard let table = layout.table(forEntity: entity.name) else { continue }
            for attribute in layout.storedAttributes(of: entity) where attribute.type == .composite {
                guard let column = layout.columnName(of: attribute.name, in: entity.name) else { continue }
                let codec = try AttributeCodec(attribute: attribute, entity: entity.name, version: layout.version)
                let statement = try connection.prepare(
                    "SELECT \(StoreColumn.pk), \(quoteIdentifier(column)) FROM \(quoteIdentifier(table.name)) "
                        + "WHERE \(StoreColumn.entity) = ? AND \(quoteIdentifier(column)) IS NOT NULL ORDER BY \(StoreColumn.pk)"
                )
                try statement.bind([.text(entity.name)])
                while try statement.step() {
                    if let problem = codec.compositeProblem(stored: statement.value(at: 1)) {
                        var error = damage(
                            problem, entity: entity.name, primaryKey: statement.int64(at: 0), attribute: attribute.name)
                        error.path = path
                        throw error
                    }
                }
            }
        }
    }

    /// The error for a damaged stored value: `Sample _pk 4 attribute "place" is damaged: member "lat": …`.
    static func damage(_ problem: ValueProblem, entity: String, primaryKey: Int64, attribute: String) -> RemodelError {
        RemodelError(
            .invalidValue,
            "\(entity) _pk \(primaryKey) attribute \"\(attribute)\" holds a damaged composite value: \(problem.message); nothing was exported. Correct the stored value (or set it to NULL) and export again",
            entity: entity, property: attribute, primaryKey: primaryKey)
    }
}
