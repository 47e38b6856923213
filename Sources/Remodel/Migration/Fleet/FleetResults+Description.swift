internal import Foundation

extension StoreMigrationResult: CustomStringConvertible {
    /// The store's line: the migration's sentence when it is done, else its outcome and why
    /// (`users/ada.sqlite: refused (newer-store): …`).
    public var description: String {
        if let report { return report.description }
        let why = reason.map { " (\($0.code))" } ?? ""
        let message = error.map { ": \($0.description)" } ?? ""
        return "\(path): \(outcome.rawValue)\(why)\(message)"
    }
}

extension FleetTally: CustomStringConvertible {
    /// The fleet in one sentence: `300 stores: 250 migrated (2 down), 40 already current, 8 refused, 2 failed
    /// transiently, 0 not started; 36,000 objects written.`
    public var description: String {
        let counts = [
            "\(groupedDigits(self[.migrated])) migrated"
                + (downgraded > 0 ? " (\(groupedDigits(downgraded)) down)" : ""),
            "\(groupedDigits(self[.current])) already current",
            "\(groupedDigits(self[.refused])) refused",
            "\(groupedDigits(self[.transient])) failed transiently",
            "\(groupedDigits(self[.skipped] + total - finished)) not started",
        ]
        return "\(groupedDigits(total)) store\(total == 1 ? "" : "s"): \(counts.joined(separator: ", ")); "
            + "\(groupedDigits(objectsMigrated)) object\(objectsMigrated == 1 ? "" : "s") written"
    }
}
