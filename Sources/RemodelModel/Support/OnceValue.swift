import Foundation

/// A value worked out on first use and kept, shared by every copy of the value type that holds it (a
/// struct cannot cache in itself without being mutated). Safe to ask from any thread: the first caller
/// computes, the others wait for it.
package final class OnceValue<Value: Sendable>: @unchecked Sendable {
    // `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value: Value?

    /// A value not yet computed.
    package init() {}

    /// Whether the value was computed.
    package var isComputed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value != nil
    }

    /// The value, computed by `make` the first time.
    package func get(_ make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let value { return value }
        let made = make()
        value = made
        return made
    }
}
