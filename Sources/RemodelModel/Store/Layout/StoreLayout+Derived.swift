extension StoreLayout {
    /// How the store keeps one derived attribute (docs/STORE-LAYOUT.md, "Derived attributes"): the store computes
    /// the value itself, so every write — Remodel's, the records', the app's own SQL — leaves it right.
    package struct DerivedColumn: Sendable, Hashable {
        /// How the value is kept.
        package enum Kind: Sendable, Hashable {
            /// A copy of another attribute of the same row: `GENERATED ALWAYS AS (…) VIRTUAL`, computed when read,
            /// taking no room, and written by nobody (SQLite refuses it).
            case generated
            /// Any other key path, function or aggregate: a plain column the store's triggers compute whenever what
            /// it reads changes, and refuse to have written otherwise.
            case maintained
            /// `now()`: a plain column the store's triggers set to the time of each write of the row. The value a
            /// write path carries (an import, a migration) is kept.
            case timestamp
        }

        /// The entity that declares the attribute.
        package var entity: String
        /// The attribute.
        package var attribute: String
        /// The attribute's type.
        package var type: AttributeType
        /// The hierarchy table and its column.
        package var table: String
        package var column: String
        /// The `_entity` values whose rows have the value (the entity and those inheriting from it), or nil when
        /// every row of the table does.
        package var kinds: [String]?
        /// How the value is kept.
        package var kind: Kind
        /// The derivation, read against the model.
        package var resolved: ResolvedDerivation

        /// `Entity.attribute`, for messages.
        package var qualifiedName: String { "\(entity).\(attribute)" }
    }

    /// The derived columns of an entity (declared by it or inherited), by attribute name.
    package func derivedColumns(of entity: String) -> [String: DerivedColumn] {
        guard !derivedColumns.isEmpty, let model = version.entity(named: entity) else { return [:] }
        var result: [String: DerivedColumn] = [:]
        for declaring in version.ancestors(of: model) + [model] {
            for derived in derivedColumns where derived.entity == declaring.name {
                result[derived.attribute] = derived
            }
        }
        return result
    }

    /// The derived column of an attribute of an entity (declared by it or inherited), if the store computes it.
    package func derivedColumn(of attribute: String, in entity: String) -> DerivedColumn? {
        guard !derivedColumns.isEmpty else { return nil }
        return derivedColumns(of: entity)[attribute]
    }

    /// Whether a write path leaves the attribute's column to the store (a generated or maintained derived
    /// attribute): imports, migrations, seeds and the records write every other stored attribute.
    package func storeComputes(_ attribute: String, in entity: String) -> Bool {
        guard let derived = derivedColumn(of: attribute, in: entity) else { return false }
        return derived.kind != .timestamp
    }

    /// Works out ``derivedColumns`` and gives each generated column its expression: after the tables and the
    /// relationships' storage, which the derivations read. A derivation the model cannot resolve (a model with
    /// errors, which is never used on a store) leaves its attribute a plain column.
    mutating func buildDerivedColumns() {
        var result: [DerivedColumn] = []
        for entity in version.entities {
            for attribute in entity.attributes where attribute.isDerived && attribute.isStored {
                guard let text = attribute.derivationExpression, let derivation = try? Derivation(parsing: text),
                    case .success(let resolved) = version.resolve(derivation, of: attribute, in: entity),
                    let tableIndex = tableIndexByEntity[entity.name],
                    let column = columnName(of: attribute.name, in: entity.name),
                    resolvable(resolved)
                else { continue }
                let table = tables[tableIndex]
                let kinds = self.kinds(of: entity.name)
                let kind: DerivedColumn.Kind
                switch derivation.form {
                case .now: kind = .timestamp
                case .keyPath: kind = resolved.toOnes.isEmpty ? .generated : .maintained
                case .function, .aggregate: kind = .maintained
                }
                let derived = DerivedColumn(
                    entity: entity.name, attribute: attribute.name, type: attribute.type, table: table.name,
                    column: column, kinds: Set(kinds) == Set(table.entities) ? nil : kinds, kind: kind,
                    resolved: resolved)
                if kind == .generated, let position = table.columns.firstIndex(where: { $0.name == column }) {
                    tables[tableIndex].columns[position].generated =
                        DerivedSQL(layout: self, column: derived)
                        .generatedSQL
                }
                result.append(derived)
            }
        }
        derivedColumns = result
    }

    /// Whether the layout stores everything a derivation reads (every hop's relationship and the attribute).
    private func resolvable(_ resolved: ResolvedDerivation) -> Bool {
        for hop in resolved.toOnes + (resolved.toMany.map { [$0] } ?? []) {
            guard storage(of: hop.relationship, in: hop.entity) != nil, table(forEntity: hop.destination) != nil
            else { return false }
        }
        if let read = resolved.read { return columnName(of: read.name, in: read.entity) != nil }
        return true
    }

    /// Whether the version derives with `lowercase:`, `uppercase:` or `canonical:`: its store then holds the
    /// text folds (``TextFolds``) its triggers read.
    package var needsTextFolds: Bool {
        derivedColumns.contains { derived in
            if case .function = derived.resolved.derivation.form { return true }
            return false
        }
    }

    /// The name of the table of text folds.
    package static let textFoldsTable = "_RemodelTextFolds"

    /// The prefix of the store's own triggers, which keep derived attributes.
    package static let derivedTriggerPrefix = "_remodel_derived_"

    /// Whether a trigger of the store is one of the store's own (not the app's).
    package static func isDerivedTrigger(_ name: String) -> Bool {
        SQLName.hasPrefix(name, derivedTriggerPrefix)
    }
}
