/// What a step, or a pass of composed steps, does to each table of the store: a table whose rows do not
/// change is *carried* — left where it is in the copy of the store, changed by schema statements
/// alone (rename, new column, dropped column) and at most an `UPDATE` that fills a constant — and
/// every other table is *rebuilt* from the source by phases 1 and 2.
///
/// A hierarchy table is carried when every object of its source table arrives under its own key as an
/// entity of the same name (no filter, no policy), and every column is a source column as it is (same
/// storage type, the same entities using it), empty, or a model default; a join table when it is one
/// source join table as it is, both ends kept, orders unchanged.
struct StorageChanges: Equatable {
    /// A constant written into a column for some entities' rows, or only into their nils.
    struct Fill: Hashable {
        var value: SQLiteValue
        var entities: [String]
        var onlyNulls: Bool
    }

    /// Where a carried table's column gets its values: a column of the source table (nil: it starts
    /// empty), then fills in order.
    struct ColumnOrigin: Hashable {
        var column: String?
        var fills: [Fill] = []
    }

    /// A hierarchy table carried from the source store.
    struct CarriedTable: Equatable {
        /// The table's name in the pass's source store.
        var source: String
        /// Its name after the pass (a rename when they differ).
        var destination: String
        /// Every column of the destination layout but `_pk` and `_entity`, with its origin.
        var columns: [String: ColumnOrigin]
        /// The source layout's columns no destination column is carried from, in source order.
        var droppedColumns: [String]

        /// Source column → destination column, for columns carried under another name.
        var renamedColumns: [(from: String, to: String)] {
            columns.compactMap { name, origin in
                origin.column.flatMap { SQLName.identical($0, name) ? nil : ($0, name) }
            }.sorted {
                $0.to < $1.to
            }
        }

        /// The destination column a source column of the table is carried to: `_pk` and `_entity` are carried as
        /// they are (they are not in ``columns``); nil for a column the table does not carry.
        func destinationColumn(carrying column: String) -> String? {
            if column == StoreColumn.pk || column == StoreColumn.entity { return column }
            return columns.first { $0.value.column.map { SQLName.identical($0, column) } == true }?.key
        }

        /// Whether the origins' source columns are distinct and ``droppedColumns`` is sorted and holds none of them:
        /// true of every table ``StorageChanges/followed(by:)`` composes (it is not compared).
        fileprivate(set) var isComposed = false

        /// Whether the table carries every column from the source column of its name, with nothing to fill: what
        /// ``UnchangedTables`` carries. Its ``droppedColumns`` are not read.
        var carriesEveryColumnAsItIs: Bool {
            columns.allSatisfy { name, origin in
                origin.fills.isEmpty && origin.column.map { SQLName.identical($0, name) } == true
            }
        }

        static func == (lhs: CarriedTable, rhs: CarriedTable) -> Bool {
            SQLName.identical(lhs.source, rhs.source) && SQLName.identical(lhs.destination, rhs.destination)
                && lhs.columns == rhs.columns
                && lhs.droppedColumns == rhs.droppedColumns
        }
    }

    /// Carried hierarchy tables by destination name.
    var carriedTables: [String: CarriedTable] = [:]
    /// Carried join tables: destination name → source name.
    var carriedJoins: [String: String] = [:]
    /// The source hierarchy tables whose objects arrive in each destination hierarchy table.
    var feeders: [String: Set<String>] = [:]
    /// The destination tables whose objects get new keys (several source tables merged into one, or a source
    /// object arriving twice), each with the source table that stays and keeps its keys, if one does
    /// (``KeyPlan``).
    var renumbered: [String: String?] = [:]

    /// The destination tables (hierarchy and join) of `layout` whose pages the pass writes: rebuilt ones, and
    /// carried ones it drops columns of (SQLite rewrites their rows) or fills. A rename or a new empty column
    /// changes the schema alone.
    func writtenTables(of layout: StoreLayout) -> [String] {
        let names = layout.tables.map(\.name) + layout.joinTables.map(\.name)
        // The tables of derived attributes the store computes: each step computes them again.
        let computed = Set(layout.derivedColumns.filter { $0.kind != .generated }.map(\.table))
        return names.filter { name in
            if computed.contains(name) { return true }
            if let carried = carriedTables[name] {
                return !carried.droppedColumns.isEmpty || carried.columns.values.contains { !$0.fills.isEmpty }
            }
            return carriedJoins[name] == nil
        } + [StoreMetadata.tableName]
    }

    /// Whether a destination table (hierarchy or join) is rebuilt.
    func isRebuilt(_ table: String) -> Bool { carriedTables[table] == nil && carriedJoins[table] == nil }

    /// Rebuilt hierarchy tables that are one source table under a new name (an entity renamed and changed, or
    /// the table that stays among several merged), source → destination: the source table is renamed before it is dropped, so that SQLite rewrites the
    /// app's foreign keys to it (`ALTER TABLE … RENAME`). Only where the source feeds that table alone and is
    /// not carried anywhere, and the new name (compared as SQLite compares names) is not that of a table
    /// still standing when the renames run: a carried one, or another table renamed. The tables a step drops
    /// go first (``StoreRewrite``), so a new name may be that of one of them: `Item_table` rebuilt as `Item`
    /// where the entity `ITEM` is removed.
    func rebuiltRenames() -> [String: String] {
        let carriedSources = Set(carriedTables.values.map(\.source)).union(carriedJoins.values)
        var destinationsOf: [String: Int] = [:]
        for (_, sources) in feeders { for source in sources { destinationsOf[source, default: 0] += 1 } }
        var renames: [String: String] = [:]
        for (destination, sources) in feeders where isRebuilt(destination) {
            // One source table, or the one that stays among those merged (its objects keep their keys).
            let staying = renumbered[destination] ?? nil
            guard let source = sources.count == 1 ? sources.first : staying, !SQLName.identical(source, destination),
                destinationsOf[source] == 1, !carriedSources.contains(source)
            else { continue }
            renames[source] = destination
        }
        let standing = Set((carriedSources.union(renames.keys)).map(SQLName.init))
        return renames.filter { !standing.contains(SQLName($0.value)) }
    }

    /// The source table a carried destination table comes from.
    func sourceTable(ofCarried table: String) -> String? { carriedTables[table]?.source ?? carriedJoins[table] }
}

extension StorageChanges {
    /// The changes of one step, from its analysis; the tables `unchanged` finds the step leaves as they were are
    /// carried as they are without it.
    ///
    /// `before` is the step before in a chain (which wrote this step's source): its destination layout, its
    /// changes and the tables it left as they were. A table it too left as it was, the same there, is carried as
    /// that step carried it, without making the same carry again.
    init(
        analysis: StepStorageAnalysis, unchanged: UnchangedTables = .none,
        before: (layout: StoreLayout, changes: StorageChanges, unchanged: Set<String>)? = nil
    ) {
        for table in analysis.destination.tables {
            if let before, unchanged.tables.contains(table.name), before.unchanged.contains(table.name),
                let carried = before.changes.carriedTables[table.name], before.layout.table(named: table.name) == table
            {
                carriedTables[table.name] = carried
                continue
            }
            if let carried = unchanged.carried(table) ?? analysis.carried(table) { carriedTables[table.name] = carried }
        }
        for join in analysis.destination.joinTables {
            if unchanged.joins.contains(join.name) {
                carriedJoins[join.name] = join.name
            } else if let source = analysis.carriedSource(of: join) {
                carriedJoins[join.name] = source
            }
        }
        for entityMapping in analysis.step.mapping.entities {
            guard let from = entityMapping.source, let to = entityMapping.destination,
                let sourceTable = analysis.source.table(forEntity: from)?.name,
                let destinationTable = analysis.destination.table(forEntity: to)?.name
            else { continue }
            feeders[destinationTable, default: []].insert(sourceTable)
        }
        for (table, staying) in analysis.keys.renumbered { renumbered[table] = .some(staying) }
    }

    /// The changes of one step. `policies` names destination entities whose objects Swift code makes.
    init(step: MigrationStep, policies: Set<String>) {
        let (source, destination) = (StoreLayout(version: step.source), StoreLayout(version: step.destination))
        let keys = KeyPlan(mapping: step.mapping, source: source, destination: destination)
        self.init(
            analysis: StepStorageAnalysis(
                step: step, source: source, destination: destination, keys: keys, policies: policies))
    }

    /// The changes of `self` followed by those of the next step: a table is carried through both only
    /// when each carries it, with the origins of its columns followed back to the first source.
    ///
    /// `shortcuts` (tests ask both roads) lets a table the next step carries as it is (every column from itself,
    /// nothing filled: most tables of a long history's step) keep the composed table it follows as it is: the
    /// composition of the two is that table, under the next step's name, when it has the same columns.
    func followed(by next: StorageChanges, shortcuts: Bool = true) -> StorageChanges {
        var composed = StorageChanges()
        composed.carriedTables.reserveCapacity(next.carriedTables.count)
        for (name, later) in next.carriedTables {
            guard var earlier = carriedTables[later.source] else { continue }
            if shortcuts, earlier.isComposed, earlier.columns.count == later.columns.count,
                later.columns.keys.allSatisfy({ earlier.columns[$0] != nil }), later.carriesEveryColumnAsItIs
            {
                earlier.destination = name
                composed.carriedTables[name] = earlier
                continue
            }
            var columns: [String: ColumnOrigin] = [:]
            for (column, origin) in later.columns {
                if let from = origin.column {
                    guard let first = earlier.columns[from] else { continue }
                    columns[column] = ColumnOrigin(column: first.column, fills: first.fills + origin.fills)
                } else {
                    columns[column] = origin
                }
            }
            guard columns.count == later.columns.count else { continue }
            let used = columns.values.compactMap(\.column)
            guard Set(used).count == used.count else { continue }
            let sourceColumns = earlier.droppedColumns + earlier.columns.values.compactMap(\.column)
            let dropped = sourceColumns.filter { !used.contains($0) }
            var table = CarriedTable(
                source: earlier.source, destination: name, columns: columns, droppedColumns: dropped.sorted())
            table.isComposed = true
            composed.carriedTables[name] = table
        }
        for (name, source) in next.carriedJoins {
            if let first = carriedJoins[source] { composed.carriedJoins[name] = first }
        }
        composed.feeders.reserveCapacity(next.feeders.count)
        for (table, sources) in next.feeders {
            // One source table (the most): its feeders as they are, the same set the union makes.
            if shortcuts, sources.count == 1, let only = sources.first {
                composed.feeders[table] = feeders[only] ?? []
                continue
            }
            composed.feeders[table] = Set(sources.flatMap { feeders[$0] ?? [] })
        }
        return composed
    }
}
