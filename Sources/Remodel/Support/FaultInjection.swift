import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one switch behind every fault point (the migrator's, the Core Data import's): the point named by
/// `REMODEL_FAULT_POINT` kills the process (`SIGKILL`) the `REMODEL_FAULT_HIT`-th time it is reached.
package enum FaultInjection {
    private static let armed: (name: String, hit: Int)? = {
        // `getenv`, not `ProcessInfo`, whose environment is a dictionary of every variable, made in Foundation.
        guard let name = getenv("REMODEL_FAULT_POINT").map({ String(cString: $0) }) else { return nil }
        let hit = getenv("REMODEL_FAULT_HIT").flatMap { Int(String(cString: $0)) } ?? 1
        return (name, hit)
    }()

    private static let counter = FaultCounter()

    /// Kills the process if `name` is the armed point and this is the armed time it is reached.
    package static func reach(_ name: String) {
        guard let armed, armed.name == name else { return }
        if counter.increment() == armed.hit {
            kill(getpid(), SIGKILL)
        }
    }
}

private final class FaultCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}
