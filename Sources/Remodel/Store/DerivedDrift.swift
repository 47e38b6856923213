/// How a store's keeping of derived attributes differs from its version's layout (part of the schema check,
/// ``SchemaDriftCheck``): each generated column generated with the layout's expression, each other derived
/// column a plain one, the store's own triggers exactly those the layout makes, and the text folds there when
/// the triggers read them. Read from `sqlite_master` alone, like the rest of the check.
enum DerivedDrift {
    /// The drifts of the store on `connection` from `layout`; `generated` holds the store's generated columns
    /// (`table.column`, lowercased) and `tables` its tables (lowercased).
    static func drifts(
        on connection: SQLiteConnection, layout: StoreLayout, generated: Set<String>, tables: Set<String>
    ) throws(RemodelError) -> [SchemaDrift] {
        var drifts: [SchemaDrift] = []
        func drift(_ derived: StoreLayout.DerivedColumn, _ detail: String) {
            var drift = SchemaDrift(
                kind: .derivedAttribute, table: derived.table, column: derived.column, unexpectedColumns: [])
            drift.detail = "\(derived.qualifiedName) = \(derived.resolved.derivation.text): \(detail)"
            drifts.append(drift)
        }
        var tableSQL: [String: String] = [:]
        var triggers: [String: (name: String, sql: String)] = [:]
        for row in try connection.rows(
            "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') AND sql IS NOT NULL")
        {
            guard case .text(let type) = row[0], case .text(let name) = row[1], case .text(let sql) = row[2] else {
                continue
            }
            if type == "table" {
                tableSQL[name.lowercased()] = sql
            } else if StoreLayout.isDerivedTrigger(name) {
                triggers[name.lowercased()] = (name, sql)
            }
        }
        var expected: Set<String> = []
        for derived in layout.derivedColumns {
            let isGenerated = generated.contains("\(derived.table.lowercased()).\(derived.column.lowercased())")
            if derived.kind == .generated {
                let wanted = layout.table(named: derived.table)?.column(named: derived.column)?.definitionSQL
                let found = tableSQL[derived.table.lowercased()].flatMap(SQLTableDefinition.init)?.definition(
                    of: derived.column)
                if !isGenerated {
                    drift(derived, "its column should be generated (\(wanted ?? "")) but is a plain one")
                } else if let wanted, let found, Self.normalized(found) != Self.normalized(wanted) {
                    drift(derived, "its column should be \(wanted) but is \(found)")
                }
                continue
            }
            if isGenerated {
                drift(derived, "its column should be a plain one the store's triggers keep, but is generated")
                continue
            }
            let kept = DerivedSQL(layout: layout, column: derived).triggers
            expected.formUnion(kept.map { $0.name.lowercased() })
            for trigger in kept {
                guard let found = triggers[trigger.name.lowercased()] else {
                    drift(derived, "the trigger \(trigger.name) that keeps it is missing")
                    break
                }
                if found.sql != trigger.sql {
                    drift(derived, "the trigger \(trigger.name) that keeps it was changed")
                    break
                }
            }
        }
        if layout.needsTextFolds, !tables.contains(StoreLayout.textFoldsTable.lowercased()),
            let derived = layout.derivedColumns.first(where: {
                if case .function = $0.resolved.derivation.form { true } else { false }
            })
        {
            drift(derived, "the table \(StoreLayout.textFoldsTable) its triggers read is missing")
        }
        for (key, (name, _)) in triggers.sorted(by: { $0.key < $1.key }) where !expected.contains(key) {
            var drift = SchemaDrift(kind: .derivedAttribute, table: "", column: nil, unexpectedColumns: [])
            drift.detail =
                "the store's trigger \(name) is not one its version keeps derived attributes with (a trigger named \(StoreLayout.derivedTriggerPrefix)… is the store's own)"
            drifts.append(drift)
        }
        return drifts
    }

    /// A definition with its spaces taken out and its letters lowercased, for comparing (SQLite keeps the text as
    /// written, and rewrites the names in it when a column is renamed).
    private static func normalized(_ text: String) -> String {
        String(text.unicodeScalars.filter { !$0.properties.isWhitespace }.map { Character($0) }).lowercased()
    }
}
