/// How a store's keeping of derived attributes differs from its version's layout (part of the schema check,
/// ``SchemaDriftCheck``): each generated column generated with the layout's expression, each other derived
/// column a plain one, the store's own triggers exactly those the layout makes, and the text folds there when
/// the triggers read them. Read from `sqlite_master` alone, like the rest of the check.
enum DerivedDrift {
    /// The drifts of the store on `connection` from `layout`; `generated` holds the store's generated columns
    /// and `tables` its tables.
    static func drifts(
        on connection: SQLiteConnection, layout: StoreLayout, generated: Set<SQLName.Column>, tables: Set<SQLName>
    ) throws(RemodelError) -> [SchemaDrift] {
        var drifts: [SchemaDrift] = []
        func drift(_ derived: StoreLayout.DerivedColumn, _ detail: String) {
            var drift = SchemaDrift(
                kind: .derivedAttribute, table: derived.table, column: derived.column, unexpectedColumns: [])
            drift.detail = "\(derived.qualifiedName) = \(derived.resolved.derivation.text): \(detail)"
            drifts.append(drift)
        }
        var tableSQL: [SQLName: String] = [:]
        var triggers: [SQLName: (name: String, sql: String)] = [:]
        for row in try connection.rows(
            "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') AND sql IS NOT NULL")
        {
            guard case .text(let type) = row[0], case .text(let name) = row[1], case .text(let sql) = row[2] else {
                continue
            }
            if type == "table" {
                tableSQL[SQLName(name)] = sql
            } else if StoreLayout.isDerivedTrigger(name) {
                triggers[SQLName(name)] = (name, sql)
            }
        }
        var expected: Set<SQLName> = []
        for derived in layout.derivedColumns {
            let isGenerated = generated.contains(SQLName.Column(derived.table, derived.column))
            if derived.kind == .generated {
                let wanted = layout.table(named: derived.table)?.column(named: derived.column)?.definitionSQL
                let found = tableSQL[SQLName(derived.table)].flatMap(SQLTableDefinition.init)?.definition(
                    of: derived.column)
                if !isGenerated {
                    drift(derived, "its column should be generated (\(wanted ?? "")) but is a plain one")
                } else if let wanted, let found,
                    !Self.normalized(found).utf8.elementsEqual(Self.normalized(wanted).utf8)
                {
                    drift(derived, "its column should be \(wanted) but is \(found)")
                }
                continue
            }
            if isGenerated {
                drift(derived, "its column should be a plain one the store's triggers keep, but is generated")
                continue
            }
            let kept = DerivedSQL(layout: layout, column: derived).triggers
            expected.formUnion(kept.map { SQLName($0.name) })
            for trigger in kept {
                guard let found = triggers[SQLName(trigger.name)] else {
                    drift(derived, "the trigger \(trigger.name) that keeps it is missing")
                    break
                }
                if !found.sql.utf8.elementsEqual(trigger.sql.utf8) {
                    drift(derived, "the trigger \(trigger.name) that keeps it was changed")
                    break
                }
            }
        }
        if layout.needsTextFolds, !tables.contains(SQLName(StoreLayout.textFoldsTable)),
            let derived = layout.derivedColumns.first(where: {
                if case .function = $0.resolved.derivation.form { true } else { false }
            })
        {
            drift(derived, "the table \(StoreLayout.textFoldsTable) its triggers read is missing")
        }
        for (key, (name, _)) in triggers.sorted(by: { $0.value.name < $1.value.name }) where !expected.contains(key) {
            var drift = SchemaDrift(kind: .derivedAttribute, table: "", column: nil, unexpectedColumns: [])
            drift.detail =
                "the store's trigger \(name) is not one its version keeps derived attributes with (a trigger named \(StoreLayout.derivedTriggerPrefix)… is the store's own)"
            drifts.append(drift)
        }
        return drifts
    }

    /// A definition with its spaces taken out and its ASCII letters lowercased, for comparing byte for byte (SQLite
    /// keeps the text as written, and rewrites the names in it when a column is renamed; it folds no other letter).
    private static func normalized(_ text: String) -> String {
        SQLName.folded(String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isWhitespace })))
    }
}
