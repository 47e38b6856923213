import Foundation

/// The semantics of every operation that SQLite's built-ins do not give
/// exactly, written once: the interpreter calls these directly and the
/// compiled SQL calls them as `remodel_…` functions (see ``ExpressionFunctions``).
/// Values are in their stored encoding; `.null` in gives `.null` out.
enum ExpressionRuntime {
    // MARK: - Integers

    /// `+ - * / %` on integers: nil on overflow, on division by zero and for `Int64.min / -1`;
    /// `/` truncates toward zero; `%` takes the sign of the dividend (`Int64.min % -1` is 0).
    static func integer(_ op: ArithmeticOperator, _ left: SQLiteValue, _ right: SQLiteValue) -> SQLiteValue {
        guard case .integer(let a) = left, case .integer(let b) = right else { return .null }
        let result: (partialValue: Int64, overflow: Bool)
        switch op {
        case .add: result = a.addingReportingOverflow(b)
        case .subtract: result = a.subtractingReportingOverflow(b)
        case .multiply: result = a.multipliedReportingOverflow(by: b)
        case .divide:
            guard b != 0 else { return .null }
            result = a.dividedReportingOverflow(by: b)
        case .remainder:
            guard b != 0 else { return .null }
            return .integer(b == -1 ? 0 : a % b)
        }
        return result.overflow ? .null : .integer(result.partialValue)
    }

    /// `-x` on an integer: nil for `Int64.min`.
    static func integerNegate(_ value: SQLiteValue) -> SQLiteValue {
        guard case .integer(let a) = value, a != .min else { return .null }
        return .integer(-a)
    }

    // MARK: - Doubles

    /// A double result as SQLite keeps it: NaN becomes nil (SQLite turns a NaN result into NULL).
    static func real(_ value: Double) -> SQLiteValue { value.isNaN ? .null : .real(value) }

    /// `+ - * / %` on doubles: IEEE arithmetic, division (and remainder) by zero gives nil,
    /// a NaN result gives nil; `%` is `truncatingRemainder` (the sign of the dividend).
    static func double(_ op: ArithmeticOperator, _ left: SQLiteValue, _ right: SQLiteValue) -> SQLiteValue {
        guard case .real(let a) = left, case .real(let b) = right else { return .null }
        switch op {
        case .add: return real(a + b)
        case .subtract: return real(a - b)
        case .multiply: return real(a * b)
        case .divide: return b == 0 ? .null : real(a / b)
        case .remainder: return b == 0 ? .null : real(a.truncatingRemainder(dividingBy: b))
        }
    }

    // MARK: - Decimals

    /// The decimal a stored decimal text stands for; `nil` for text that is not a decimal number.
    static func decimal(_ value: SQLiteValue) -> Decimal? {
        switch value {
        case .integer(let integer): return Decimal(integer)
        case .text(let text): return parseDecimal(text)
        default: return nil
        }
    }

    /// Parses `[+-]digits[.digits][e[+-]digits]` exactly; anything else is `nil`.
    static func parseDecimal(_ text: String) -> Decimal? {
        var bytes = Array(text.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            bytes = bytes.dropFirst()
        }
        func digits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        guard digits() > 0 else { return nil }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return nil }
        }
        if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            guard digits() > 0 else { return nil }
        }
        guard bytes.isEmpty, let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN
        else {
            return nil
        }
        return value
    }

    /// The stored text of a decimal; nil for NaN.
    static func decimalValue(_ value: Decimal) -> SQLiteValue {
        value.isNaN ? .null : .text(value.description)
    }

    /// `+ - * /` on decimals, exact to Foundation's 38 digits: nil on overflow,
    /// underflow and division by zero.
    static func decimal(_ op: ArithmeticOperator, _ left: SQLiteValue, _ right: SQLiteValue) -> SQLiteValue {
        guard var a = decimal(left), var b = decimal(right) else { return .null }
        var result = Decimal()
        let error: NSDecimalNumber.CalculationError
        switch op {
        case .add: error = NSDecimalAdd(&result, &a, &b, .plain)
        case .subtract: error = NSDecimalSubtract(&result, &a, &b, .plain)
        case .multiply: error = NSDecimalMultiply(&result, &a, &b, .plain)
        case .divide:
            guard !b.isZero else { return .null }
            error = NSDecimalDivide(&result, &a, &b, .plain)
        case .remainder: return .null
        }
        switch error {
        case .noError, .lossOfPrecision: return decimalValue(result)
        default: return .null
        }
    }

    /// `-x` on a decimal.
    static func decimalNegate(_ value: SQLiteValue) -> SQLiteValue {
        decimal(.subtract, .integer(0), value)
    }

    /// -1, 0 or 1 comparing two decimals numerically; nil when either is nil.
    static func decimalCompare(_ left: SQLiteValue, _ right: SQLiteValue) -> SQLiteValue {
        guard var a = decimal(left), var b = decimal(right) else { return .null }
        switch NSDecimalCompare(&a, &b) {
        case .orderedAscending: return .integer(-1)
        case .orderedSame: return .integer(0)
        case .orderedDescending: return .integer(1)
        }
    }

    // MARK: - Comparisons

    /// -1, 0 or 1 comparing two non-null values of the same type as SQLite
    /// does: numbers numerically, text by UTF-8 bytes (BINARY collation), blobs by bytes.
    static func order(_ left: SQLiteValue, _ right: SQLiteValue) -> Int? {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.real(let a), .real(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.text(let a), .text(let b)): return bytewise(Array(a.utf8), Array(b.utf8))
        case (.blob(let a), .blob(let b)): return bytewise(Array(a), Array(b))
        default: return nil
        }
    }

    private static func bytewise(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count < b.count ? -1 : a.count == b.count ? 0 : 1
    }
}

extension ExpressionRuntime {
    /// A new random UUID in its stored encoding (uppercase canonical text).
    static func randomUUID() -> SQLiteValue { .text(UUID().uuidString.uppercased()) }
}
