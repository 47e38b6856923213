extension RollbackReport: CustomStringConvertible {
    /// What the rollback did: `Rolled library.sqlite back to the backup the migration kept: it is at version
    /// Library 2 again (it was at Library 3).`
    public var description: String {
        let from = replacedVersion.map { " (it was at \($0))" } ?? ""
        let to = restoredVersion.map { ": it is at version \($0) again" } ?? ""
        return "Rolled \(path) back to the backup the migration kept\(to)\(from)."
    }
}
