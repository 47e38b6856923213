import Foundation

extension NSLock {
    /// Runs `body` holding the lock (`NSLocking.withLock` needs macOS 14).
    package func locked<T>(_ body: () -> T) -> T {
        lock()
        defer { unlock() }
        return body()
    }
}
