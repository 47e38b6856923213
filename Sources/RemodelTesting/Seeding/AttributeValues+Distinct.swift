internal import Foundation
import Remodel

/// Distinct values for attributes under a uniqueness constraint: the `n`-th
/// object of a table gets the `n`-th value, so no two objects share one and
/// nothing needs remembering, however many objects there are.
extension AttributeValues {
    /// How many distinct values ``distinct(_:of:salt:)`` makes when spread over `total` objects
    /// (0 when this kind cannot be enumerated, such as a regular expression).
    func distinctCapacity(total: UInt64) -> UInt64 {
        switch kind {
        case .integer(let range), .decimal(let range):
            return Self.span(range)
        case .real(let range, let float):
            let (lower, upper) = Self.distinctBounds(range)
            guard total > 1, upper > lower else { return 1 }
            let step = (upper - lower) / Double(total)
            let magnitude = max(abs(lower), abs(upper))
            let resolution = float ? Double(Float(magnitude).ulp) : magnitude.ulp
            return step > resolution * 4 ? total : 0
        case .text(_, let maximum, _):
            return SeedText.distinctCapacity(maximum: maximum)
        case .boolean:
            return 2
        case .date(let range):
            return Self.span(range)
        case .binary(_, let maximum):
            return maximum >= 8 ? UInt64.max : (0..<maximum).reduce(UInt64(1)) { result, _ in result * 256 }
        case .uuid:
            return 1 << 48
        case .pattern, .composite, .archive, .none:
            return 0
        }
    }

    /// The `n`-th of distinct values (`n` < `min(total, distinctCapacity(total:))`); `salt` varies them by seed.
    func distinct(_ n: UInt64, of total: UInt64, salt: UInt64) -> SQLiteValue {
        switch kind {
        case .integer(let range):
            return .integer(range.lowerBound &+ Int64(bitPattern: Self.permute(n, span: Self.span(range), salt: salt)))
        case .decimal(let range):
            return .text(
                Self.decimalText(
                    range.lowerBound &+ Int64(bitPattern: Self.permute(n, span: Self.span(range), salt: salt))))
        case .real(let range, let float):
            let (lower, upper) = Self.distinctBounds(range)
            let value = total > 1 ? lower + (upper - lower) / Double(total) * (Double(n) + 0.5) : lower
            return .real(float ? Self.float(value, within: range) : value)
        case .text(let minimum, let maximum, let uri):
            let word = SeedText.words[Int(SeedRandom.finalize(salt ^ n) % UInt64(SeedText.words.count))]
            return .text(SeedText.distinct(n, minimum: minimum, maximum: maximum, uri: uri, word: word))
        case .boolean:
            return .integer(Int64(n & 1))
        case .date(let range):
            let span = Self.span(range)
            let step = max(1, min(span / max(total, 1), 3_600_000))
            return .real(Double(range.lowerBound &+ Int64(bitPattern: n &* step)) / 1000)
        case .binary(let minimum, let maximum):
            let width = min(8, maximum)
            var bytes = (0..<width).map { UInt8(truncatingIfNeeded: n >> (8 * UInt64(width - 1 - $0))) }
            if bytes.count < minimum { bytes += [UInt8](repeating: 0, count: minimum - bytes.count) }
            return .blob(Data(bytes))
        case .uuid:
            let node = n & 0xFFFF_FFFF_FFFF
            return .text(
                Self.uuid(
                    high: SeedRandom.mix([salt, n]), low: (SeedRandom.finalize(salt &+ n) & ~0xFFFF_FFFF_FFFF) | node))
        case .pattern, .composite, .archive, .none:
            return .null
        }
    }

    /// The number of values in a range, `UInt64.max` standing for 2^64 (the whole Int64 range).
    static func span(_ range: ClosedRange<Int64>) -> UInt64 {
        let difference = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        return difference == UInt64.max ? UInt64.max : difference + 1
    }

    /// Bounds to spread distinct reals over: the attribute's, within ±1e9.
    private static func distinctBounds(_ range: ClosedRange<Double>) -> (Double, Double) {
        (max(range.lowerBound, -1e9), min(range.upperBound, 1e9))
    }

    /// The `n`-th of a shuffle of `0..<span` drawn from `salt`.
    static func permute(_ n: UInt64, span: UInt64, salt: UInt64) -> UInt64 {
        var random = SeedRandom(salt)
        if span == UInt64.max {
            // The whole 64-bit range: any odd multiplier is a bijection modulo 2^64.
            return (random.next() | 1) &* n &+ random.next()
        }
        return AffinePermutation(count: span, random: &random, invertible: false).position(n)
    }
}
