package import Foundation

/// What an expression can see besides the source object: the instant `now()`
/// returns, fixed once per migration so every object gets the same one.
///
/// For example:
/// ```swift
/// let environment = ExpressionEnvironment(now: Date())
/// let interpreter = ExpressionInterpreter(environment: environment)
/// ```
package struct ExpressionEnvironment: Sendable, Hashable {
    /// The value of `now()`.
    package var now: Date

    /// Creates an environment.
    /// - Parameter now: The value of `now()`; the current instant when omitted.
    package init(now: Date = Date()) {
        self.now = now
    }

    /// `now()` in its stored encoding: seconds since 1970.
    var nowValue: SQLiteValue { .real(now.timeIntervalSince1970) }
}
