import Remodel

/// A shuffle of `0..<count` that needs no table: `(a·i + b) mod count` with `a`
/// coprime to `count`, and its inverse `a⁻¹·(p − b) mod count`.
struct AffinePermutation {
    let count: UInt64
    private let multiplier: UInt64
    private let inverseMultiplier: UInt64
    private let offset: UInt64

    /// A shuffle drawn from `random`; the identity for fewer than two elements. Without `invertible`,
    /// ``index(_:)`` is not available (and not computed).
    init(count: UInt64, random: inout SeedRandom, invertible: Bool = true) {
        self.count = count
        guard count > 1 else {
            multiplier = 1
            inverseMultiplier = 1
            offset = 0
            return
        }
        var a = 1 + random.below(count - 1)
        while Self.gcd(a, count) != 1 { a = a == count - 1 ? 1 : a + 1 }
        multiplier = a
        offset = random.below(count)
        inverseMultiplier = invertible ? Self.inverse(of: a, modulo: count) : 0
    }

    /// Where `index` goes.
    func position(_ index: UInt64) -> UInt64 {
        guard count > 1 else { return 0 }
        return Self.add(Self.multiply(multiplier, index % count, modulo: count), offset, modulo: count)
    }

    /// What goes to `position` (for an invertible permutation of fewer than 2^62 elements).
    func index(_ position: UInt64) -> UInt64 {
        guard count > 1 else { return 0 }
        return Self.multiply(
            inverseMultiplier, Self.add(position % count, count - offset, modulo: count), modulo: count)
    }

    static func multiply(_ a: UInt64, _ b: UInt64, modulo m: UInt64) -> UInt64 {
        m.dividingFullWidth(a.multipliedFullWidth(by: b)).remainder
    }

    static func add(_ a: UInt64, _ b: UInt64, modulo m: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow || sum >= m ? sum &- m : sum
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    /// The inverse of `a` modulo `m` by the extended Euclidean algorithm (`gcd(a, m)` = 1, `m` < 2^62).
    private static func inverse(of a: UInt64, modulo m: UInt64) -> UInt64 {
        guard m < 1 << 62 else { return 1 }
        var (oldR, r) = (Int64(a), Int64(m))
        var (oldS, s) = (Int64(1), Int64(0))
        while r != 0 {
            let quotient = oldR / r
            (oldR, r) = (r, oldR - quotient * r)
            (oldS, s) = (s, oldS - quotient * s)
        }
        let result = oldS % Int64(m)
        return UInt64(result < 0 ? result + Int64(m) : result)
    }
}
