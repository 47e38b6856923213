extension SourceCensus {
    /// A census of the columns whose values `losses` (the first step's) count, in the step's source layout.
    convenience init(losses: [DataLoss], layout: StoreLayout) {
        var columns: [SQLName: Set<String>] = [:]
        for loss in losses {
            guard let property = loss.property, let table = layout.table(forEntity: loss.entity)?.name else { continue }
            let column: String?
            switch layout.storage(of: property, in: loss.entity) {
            case .column(_, let name)?: column = name
            case nil: column = layout.columnName(of: property, in: loss.entity)
            default: column = nil
            }
            if let column { columns[SQLName(table), default: []].insert(column) }
        }
        self.init(columns: columns)
    }
}
