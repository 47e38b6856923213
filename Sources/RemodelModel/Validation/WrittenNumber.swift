/// A number as a model file writes it (`-12`, `3.5`, `.5`, `1e3`), held exactly: to tell whether it is whole and
/// within a type's range, and to order a default and its bounds. Foundation's `Decimal` rounds past 38 digits and
/// has no value for `1e300`, which a Double attribute may well have; this type has every written number.
struct WrittenNumber: Comparable, CustomStringConvertible {
    /// Whether the number is below zero (never for zero).
    private let isNegative: Bool
    /// The significant digits (0–9), without leading or trailing zeros; empty for zero.
    private let digits: [UInt8]
    /// Where the point is: the number is 0.`digits` × 10^`point`.
    private let point: Int

    /// The number a text writes: an optional sign, digits with at most one point (at least one digit), and an
    /// optional exponent (`e` or `E`, an optional sign, digits); nothing before or after. Nil for anything else.
    init?(_ text: String) {
        let text = Array(text.utf8)
        var bytes = text[...]
        func digitRun() -> ArraySlice<UInt8> {
            let start = bytes.startIndex
            while let next = bytes.first, next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") { bytes.removeFirst() }
            return text[start..<bytes.startIndex]
        }
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes.removeFirst()
        }
        let whole = digitRun()
        var fraction: ArraySlice<UInt8> = []
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            fraction = digitRun()
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return nil }
        var exponent = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes.removeFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes.removeFirst()
            }
            let run = digitRun()
            guard !run.isEmpty else { return nil }
            let significant = run.drop { $0 == UInt8(ascii: "0") }
            // Past nine digits the exponent is beyond any type's range either way: held at a billion.
            exponent =
                significant.count > 9 ? 1_000_000_000 : significant.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            if exponentNegative { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }
        let all = (whole + fraction).map { $0 - UInt8(ascii: "0") }
        guard let first = all.firstIndex(where: { $0 != 0 }) else {
            self.init(isNegative: false, digits: [], point: 0)
            return
        }
        let last = all.lastIndex { $0 != 0 }!
        self.init(isNegative: negative, digits: Array(all[first...last]), point: whole.count - first + exponent)
    }

    /// A whole number.
    init(_ value: Int64) {
        let text = String(value.magnitude)
        let all = text.utf8.map { $0 - UInt8(ascii: "0") }
        let significant = all.reversed().drop { $0 == 0 }.reversed()
        self.init(isNegative: value < 0, digits: Array(significant), point: value == 0 ? 0 : all.count)
    }

    private init(isNegative: Bool, digits: [UInt8], point: Int) {
        self.isNegative = isNegative && !digits.isEmpty
        self.digits = digits
        self.point = digits.isEmpty ? 0 : point
    }

    /// Whether the number has no fractional part.
    var isWhole: Bool { digits.count <= point || digits.isEmpty }

    static func < (left: WrittenNumber, right: WrittenNumber) -> Bool {
        if left.isNegative != right.isNegative { return left.isNegative }
        let magnitudeLess = left.isNegative ? magnitudeIsLess(right, left) : magnitudeIsLess(left, right)
        return magnitudeLess
    }

    /// Whether `left`'s magnitude is below `right`'s.
    private static func magnitudeIsLess(_ left: WrittenNumber, _ right: WrittenNumber) -> Bool {
        if left.digits.isEmpty || right.digits.isEmpty { return left.digits.isEmpty && !right.digits.isEmpty }
        if left.point != right.point { return left.point < right.point }
        return left.digits.lexicographicallyPrecedes(right.digits)
    }

    /// The number in plain decimal notation (`-12`, `0.5`, `1000`).
    var description: String {
        guard !digits.isEmpty else { return "0" }
        let text = digits.map { String($0) }.joined()
        let sign = isNegative ? "-" : ""
        if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + text }
        if point >= digits.count { return sign + text + String(repeating: "0", count: point - digits.count) }
        let split = text.index(text.startIndex, offsetBy: point)
        return sign + text[..<split] + "." + text[split...]
    }
}
