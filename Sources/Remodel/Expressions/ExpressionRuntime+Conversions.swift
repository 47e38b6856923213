import Foundation

extension ExpressionRuntime {
    /// Converts a value in the stored encoding of `from` to that of `to`; nil when
    /// it has no value there (text that is not a number, a number out of range).
    static func convert(_ value: SQLiteValue, from: ExpressionType, to: ExpressionType) -> SQLiteValue {
        if value.isNull || from == to { return value }
        switch to {
        case .integer: return toInteger(value, from: from)
        case .double: return toDouble(value, from: from)
        case .decimal: return toDecimal(value, from: from)
        case .string: return toString(value, from: from)
        default: return value
        }
    }

    private static let twoToThe63 = 9_223_372_036_854_775_808.0

    /// An integer: doubles and decimals truncate toward zero (nil outside Int64),
    /// text must be an integer as Swift's `Int64(_:)` reads it (`"12"`, `"-3"`, `"+4"`),
    /// Booleans are 0 or 1.
    static func toInteger(_ value: SQLiteValue, from: ExpressionType) -> SQLiteValue {
        switch (from, value) {
        case (.integer, .integer), (.boolean, .integer): return value
        case (.double, .real(let double)):
            guard double.isFinite, double >= -twoToThe63, double < twoToThe63 else { return .null }
            return .integer(Int64(double.rounded(.towardZero)))
        case (.decimal, _):
            guard let decimal = decimal(value) else { return .null }
            let text = decimal.description
            let whole =
                text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
                ?? text
            return Int64(whole).map(SQLiteValue.integer) ?? .null
        case (.string, .text(let text)): return Int64(text).map(SQLiteValue.integer) ?? .null
        default: return .null
        }
    }

    /// A double: integers round to nearest, decimals and text are read as Swift's
    /// `Double(_:)` reads them (correctly rounded); NaN gives nil.
    static func toDouble(_ value: SQLiteValue, from: ExpressionType) -> SQLiteValue {
        switch (from, value) {
        case (.integer, .integer(let integer)), (.boolean, .integer(let integer)): return .real(Double(integer))
        case (.double, .real): return value
        case (.decimal, .text(let text)), (.string, .text(let text)):
            guard let double = Double(text) else { return .null }
            return real(double)
        case (.decimal, .integer(let integer)): return .real(Double(integer))
        default: return .null
        }
    }

    /// A decimal: integers exactly, doubles through their shortest text (`0.1` is `0.1`),
    /// text when it is `[+-]digits[.digits][e[+-]digits]`; nil outside Decimal's range.
    static func toDecimal(_ value: SQLiteValue, from: ExpressionType) -> SQLiteValue {
        switch (from, value) {
        case (.integer, .integer(let integer)): return .text(String(integer))
        case (.double, .real(let double)):
            guard double.isFinite else { return .null }
            return parseDecimal(double == 0 ? "0" : "\(double)").map(decimalValue) ?? .null
        case (.decimal, _): return value
        case (.string, .text(let text)): return parseDecimal(text).map(decimalValue) ?? .null
        default: return .null
        }
    }

    /// Text: integers in decimal, doubles as Swift prints them (`1.0`, `1e+20`, `-0.0`, `inf`),
    /// decimals and UUIDs and URIs as stored, Booleans `true`/`false`, dates ISO 8601 UTC
    /// with milliseconds (`2024-05-01T12:00:00.000Z`, nil outside years 1…9999).
    static func toString(_ value: SQLiteValue, from: ExpressionType) -> SQLiteValue {
        switch (from, value) {
        case (.integer, .integer(let integer)): return .text(String(integer))
        case (.double, .real(let double)): return .text(double.description)
        case (.boolean, .integer(let integer)): return .text(integer != 0 ? "true" : "false")
        case (.date, .real(let seconds)): return iso8601(seconds).map(SQLiteValue.text) ?? .null
        case (.date, .integer(let seconds)): return iso8601(Double(seconds)).map(SQLiteValue.text) ?? .null
        case (_, .text): return value
        default: return .null
        }
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` for seconds since 1970, to the nearest millisecond: the export's format.
    static func iso8601(_ seconds: Double) -> String? {
        ISODate.format(seconds)
    }
}
