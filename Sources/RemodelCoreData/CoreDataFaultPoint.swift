import Remodel

/// Places in a Core Data import where a test can make the process die (`SIGKILL`), to prove that a
/// kill at any moment leaves no partial store: armed as the migrator's points are, with
/// `REMODEL_FAULT_POINT` (and `REMODEL_FAULT_HIT`, default 1) in a child process's environment.
enum CoreDataFaultPoint: String, CaseIterable {
    /// One hierarchy table's objects are written to the temporary store.
    case afterTable = "core-data-after-table"
    /// The temporary store is complete and durable; the rename is next.
    case beforeRename = "core-data-before-rename"
    /// The store is in place; its folder is not yet flushed.
    case afterRename = "core-data-after-rename"

    /// Kills the process here if this point is armed and reached for the armed time.
    func reach() { FaultInjection.reach(rawValue) }
}
