/// What an expression can see besides the source object: the instant `now()`
/// returns, fixed once per migration so every object gets the same one.
///
/// For example:
/// ```swift
/// let environment = ExpressionEnvironment(secondsSince1970: 1_700_000_000)
/// let interpreter = ExpressionInterpreter(environment: environment)
/// ```
package struct ExpressionEnvironment: Sendable, Hashable {
    /// The value of `now()`, in seconds since 1970-01-01 00:00:00 UTC.
    package var secondsSince1970: Double

    /// Creates an environment.
    /// - Parameter secondsSince1970: The value of `now()`; the current instant when omitted.
    package init(secondsSince1970: Double = WallClock.secondsSince1970()) {
        self.secondsSince1970 = secondsSince1970
    }

    /// `now()` in its stored encoding: seconds since 1970.
    var nowValue: SQLiteValue { .real(secondsSince1970) }
}
