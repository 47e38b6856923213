internal import Foundation

extension MigrationReport: CustomStringConvertible {
    /// What the migration did, in the sentence `remodel migrate` closes with, and a line per value dropped:
    ///
    /// ```
    /// Migrated library.sqlite from Library to Library 3 in 2 steps: 3 objects written to Person and Tag, 1 other table carried as it was, 0.02 s.
    ///   As the mapping says, Library → Library 2 drops Person.email (2 values)
    /// ```
    public var description: String {
        let rollback =
            rolledBackUnfinishedTransaction
            ? " A program had stopped in the middle of a write and left an unfinished transaction in its journal: SQLite rolled it back first."
            : ""
        guard steps > 0 else { return "\(path) is already at \(targetVersion): nothing to do." + rollback }
        let count = steps == 1 ? "1 step" : "\(steps) steps"
        var text = String(
            format: "Migrated %@ %@from %@ to %@ in %@: %@, %.2f s.", path, isDowngrade ? "down " : "", sourceVersion,
            targetVersion, count, writtenAndCarried, seconds)
        if let backupPath { text += " The original is kept as \(backupPath)." }
        for loss in losses where loss.count != 0 {
            switch (loss.becameNil, isDowngrade) {
            case (true, true): text += "\n  Lost, as --downgrade allow-loss allows: \(loss)"
            case (true, false): text += "\n  Lost: \(loss)"
            case (false, true): text += "\n  Dropped, as --downgrade allow-loss allows: \(loss.detail)"
            case (false, false): text += "\n  As the mapping says, \(loss)"
            }
        }
        for upkeep in rebuiltIndexes.map(\.description) + unfiredTriggers.map(\.description) {
            text += "\n  \(upkeep)"
        }
        return text + rollback
    }

    /// What the objects written count: `3 objects written to Person and Tag, 1 other table carried as it was`;
    /// `0 objects written, every table carried as it was`.
    private var writtenAndCarried: String {
        let written = "\(groupedDigits(objects)) object\(objects == 1 ? "" : "s") written"
        guard !writtenTables.isEmpty else { return written + ", every table carried as it was" }
        let tables =
            writtenTables.count > 3
            ? "\(writtenTables.count) tables (\(writtenTables.prefix(3).joined(separator: ", ")), …)"
            : writtenTables.listed()
        let others = tableCount - writtenTables.count
        let carried =
            others <= 0
            ? "" : others == 1 ? ", 1 other table carried as it was" : ", \(others) other tables carried as they were"
        return "\(written) to \(tables)\(carried)"
    }
}
