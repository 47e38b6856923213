import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    private static let armed: (name: String, hit: Int)? = {
        guard let name = ProcessInfo.processInfo.environment["REMODEL_FAULT_POINT"] else { return nil }
        return (name, ProcessInfo.processInfo.environment["REMODEL_FAULT_HIT"].flatMap { Int($0) } ?? 1)
    }()

    private static let counter = Counter()

    /// Kills the process here if this point is armed and reached for the armed time.
    func reach() {
        guard let armed = Self.armed, armed.name == rawValue else { return }
        if Self.counter.increment() == armed.hit { kill(getpid(), SIGKILL) }
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func increment() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count
        }
    }
}
