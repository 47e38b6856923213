/// What a step's writes mean for what the app keeps over the model's tables (DESIGN.md, Migration 13), worked out at
/// planning on the rehearsal's schema.
///
/// - An app full-text index with external content (FTS4 or FTS5, `content=`) over a table whose rows the step
///   rewrites — a table it rebuilds (objects removed, added, filtered out or given new keys), or a carried one whose
///   indexed columns it fills — would answer with rows that are gone and miss rows that arrived: the pass rebuilds
///   it from its content (``rebuild(_:on:)``). One over a view is rebuilt when the step rewrites a table the view
///   reads. An index the migration does not touch the rows of is left as it is: it costs nothing.
/// - A contentless index (`content=''`) cannot be rebuilt: when an app trigger keeps it from a table whose rows the
///   step rewrites, the step is refused at planning, naming it.
/// - The app's triggers on a table the step rewrites did not fire for its writes (they are set aside while the pass
///   writes): each is named, with what it writes, in the plan and in the migration's closing lines, unless all it
///   writes is an index the pass rebuilds anyway.
struct AppUpkeep: Equatable {
    /// An app full-text index the step's pass rebuilds.
    struct Rebuild: Equatable {
        /// The index (its virtual table's name).
        var index: String
        /// What it indexes (`content=`): a model table, or a view of the app.
        var content: String
        /// The app's triggers that keep it from tables the step rewrites (did not fire, and need not have).
        var keptBy: [String]
    }

    /// An app trigger on a table the step rewrites: it did not fire for the step's writes.
    struct UnfiredTrigger: Equatable {
        var name: String
        /// The table it is on, in the step's destination names.
        var table: String
        /// What fires it (`AFTER INSERT`).
        var event: String
        /// The tables its body writes (those it keeps up to date).
        var writes: [String]
    }

    private(set) var rebuilds: [Rebuild] = []
    private(set) var unfiredTriggers: [UnfiredTrigger] = []

    init() {}

    /// Works out a step's upkeep from the app's objects as the step leaves them (`app`, renames followed), created
    /// on `scratch` over the step's destination schema (``SchemaRehearsal``).
    /// - Throws: ``/RemodelModel/RemodelError/Code/migrationNotPlannable`` naming a contentless index that a trigger
    ///   keeps from a table the step rewrites.
    init(
        app: AppSchema, destination: StoreLayout, changes: StorageChanges, stepName: String, scratch: SQLiteConnection
    ) throws(RemodelError) {
        let rewritten = Rewritten(destination: destination, changes: changes)
        guard !rewritten.isEmpty else { return }
        var triggers: [UnfiredTrigger] = []
        for trigger in app.triggers {
            if let unfired = try rewritten.unfired(trigger, on: scratch) { triggers.append(unfired) }
        }
        for table in app.tables where table.type == "table" {
            guard let options = SQLVirtualTableOptions(table.sql), options.isFullTextIndex,
                let content = options.value(of: "content")
            else { continue }
            let keepers = triggers.filter { trigger in trigger.writes.contains { SQLName.same($0, table.name) } }
            if content.isEmpty {
                guard let keeper = keepers.first else { continue }
                throw RemodelError(
                    .migrationNotPlannable,
                    "the app's full-text index \(table.name) is contentless (content=''), and the app's trigger \(keeper.name) keeps it from \(keeper.table), whose rows \(stepName) rewrites: a contentless index cannot be rebuilt, and would answer with rows that are gone or miss rows that arrived. Drop it before migrating and build it again for the new version; Remodel does not leave it stale silently",
                    entity: table.name)
            }
            let columns = try scratch.rows("SELECT name FROM pragma_table_info(?)", [.text(table.name)]).compactMap {
                row -> String? in
                if case .text(let name) = row[0] { return name }
                return nil
            }
            guard try rewritten.changesRows(readBy: content, columns: columns, on: scratch) else { continue }
            rebuilds.append(Rebuild(index: table.name, content: content, keptBy: keepers.map(\.name)))
        }
        let rebuilt = rebuilds.map(\.index)
        unfiredTriggers = triggers.filter { trigger in
            trigger.writes.isEmpty
                || !trigger.writes.allSatisfy { written in rebuilt.contains { SQLName.same($0, written) } }
        }
    }

    /// Whether the step leaves the app's objects as they were.
    var isEmpty: Bool { rebuilds.isEmpty && unfiredTriggers.isEmpty }

    /// The plan's lines for the step.
    var planLines: [String] {
        rebuilds.map { rebuild in
            let kept =
                rebuild.keptBy.isEmpty ? "" : " (its triggers \(rebuild.keptBy.joined(separator: ", ")) do not fire)"
            return
                "  Rebuilds the app's full-text index \(rebuild.index) over \(rebuild.content): the step rewrites the rows it indexes\(kept)"
        }
            + unfiredTriggers.map { trigger in
                "  Writes \(trigger.table) without firing the app's trigger \(trigger.name) (\(trigger.event)): \(Self.keeps(trigger)) is not brought up to date"
            }
    }

    /// What an unfired trigger keeps, for a sentence.
    static func keeps(_ trigger: UnfiredTrigger) -> String {
        trigger.writes.isEmpty ? "what it does" : "what it writes (\(trigger.writes.joined(separator: ", ")))"
    }

    /// Rebuilds, at the end of a pass, every index that one of the pass's steps rewrote the rows of, once.
    static func rebuild(_ steps: [AppUpkeep], on connection: SQLiteConnection) throws(RemodelError) {
        var done: [String] = []
        for rebuild in steps.flatMap(\.rebuilds) where !done.contains(where: { SQLName.same($0, rebuild.index) }) {
            done.append(rebuild.index)
            let index = quoteIdentifier(rebuild.index)
            do {
                try connection.execute("INSERT INTO main.\(index) (\(index)) VALUES ('rebuild')")
            } catch {
                throw RemodelError(
                    .validationFailed,
                    "the app's full-text index \(rebuild.index) could not be rebuilt from \(rebuild.content) on the migrated data (\(error.message)); the store was left as it was",
                    entity: rebuild.index, cause: error)
            }
        }
    }
}

extension AppUpkeep {
    /// What the steps of a migration did to the app's objects, for its report: each index rebuilt once, and each
    /// trigger that did not fire once, on its table as the last step that rewrote it names it.
    static func report(_ steps: [AppUpkeep]) -> (
        indexes: [MigrationReport.RebuiltIndex], triggers: [MigrationReport.UnfiredTrigger]
    ) {
        var indexes: [MigrationReport.RebuiltIndex] = []
        var triggers: [MigrationReport.UnfiredTrigger] = []
        for step in steps {
            for rebuild in step.rebuilds where !indexes.contains(where: { SQLName.same($0.name, rebuild.index) }) {
                indexes.append(MigrationReport.RebuiltIndex(name: rebuild.index, content: rebuild.content))
            }
            for trigger in step.unfiredTriggers {
                let reported = MigrationReport.UnfiredTrigger(
                    name: trigger.name, table: trigger.table, event: trigger.event, writes: trigger.writes)
                if let index = triggers.firstIndex(where: { SQLName.same($0.name, trigger.name) }) {
                    triggers[index] = reported
                } else {
                    triggers.append(reported)
                }
            }
        }
        return (indexes, triggers)
    }
}

/// The tables whose rows a step rewrites: those it rebuilds, and carried ones it fills columns of.
private struct Rewritten {
    /// Rebuilt tables (hierarchy and join), as SQLite compares names.
    private var rebuilt: Set<SQLName> = []
    /// The columns a carried table gets constants in, by table, as SQLite compares names.
    private var filled: [SQLName: Set<SQLName>] = [:]

    init(destination: StoreLayout, changes: StorageChanges) {
        for name in destination.tables.map(\.name) + destination.joinTables.map(\.name) where changes.isRebuilt(name) {
            rebuilt.insert(SQLName(name))
        }
        for (name, carried) in changes.carriedTables {
            let columns = carried.columns.filter { !$0.value.fills.isEmpty }.map { SQLName($0.key) }
            if !columns.isEmpty { filled[SQLName(name), default: []].formUnion(columns) }
        }
    }

    var isEmpty: Bool { rebuilt.isEmpty && filled.isEmpty }

    /// Whether the step rewrites rows of `table` that `columns` (nil: any column) read.
    func rewrites(_ table: String, columns: [String]?) -> Bool {
        let key = SQLName(table)
        if rebuilt.contains(key) { return true }
        guard let filled = filled[key] else { return false }
        guard let columns else { return true }
        return columns.contains { filled.contains(SQLName($0)) }
    }

    /// Whether the step rewrites rows that an index's `content=` reads: the model table it names, or a table the
    /// view it names reads (a view's columns are not followed to theirs: any filled column counts).
    func changesRows(readBy content: String, columns: [String], on scratch: SQLiteConnection) throws(RemodelError)
        -> Bool
    {
        if rewrites(content, columns: columns) { return true }
        let kind = try scratch.scalar(
            "SELECT type FROM sqlite_master WHERE name = ? COLLATE NOCASE", [.text(content)])
        guard kind == .text("view") else { return false }
        let read = try scratch.tableAccesses(compiling: "SELECT * FROM \(quoteIdentifier(content))")
        return read.contains { !$0.writes && rewrites($0.table, columns: nil) }
    }

    /// The trigger, when the step rewrites rows it fires on: every trigger on a rebuilt table, an update trigger on
    /// a filled column (or on any column) of a carried one; with the tables its body writes.
    func unfired(_ trigger: AppSchema.Object, on scratch: SQLiteConnection) throws(RemodelError)
        -> AppUpkeep.UnfiredTrigger?
    {
        let header = SQLTriggerHeader(trigger.sql)
        let fires: Bool
        if rebuilt.contains(SQLName(trigger.table)) {
            fires = true
        } else if let header, header.firesOnUpdate {
            fires = rewrites(trigger.table, columns: header.updatedColumns.isEmpty ? nil : header.updatedColumns)
        } else {
            fires = false
        }
        guard fires else { return nil }
        var writes: [String] = []
        for statement in try SchemaRehearsal.firingStatements(of: trigger, on: scratch) {
            for access in try scratch.tableAccesses(compiling: statement)
            where access.writes && access.through.map({ SQLName.same($0, trigger.name) }) == true
                && !writes.contains(where: { SQLName.same($0, access.table) })
            {
                writes.append(access.table)
            }
        }
        return AppUpkeep.UnfiredTrigger(
            name: trigger.name, table: trigger.table, event: header?.event ?? "", writes: writes)
    }
}
