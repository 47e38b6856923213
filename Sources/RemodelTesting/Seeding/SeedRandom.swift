import Remodel

/// The generator's source of randomness: SplitMix64, whose sequence for a
/// seed is fixed by its arithmetic on every platform and Swift version, so a
/// seed number always gives the same data. (`SystemRandomNumberGenerator` is
/// never used, and neither are the standard library's `random(in:using:)`
/// methods, whose algorithm is not promised to stay the same.)
struct SeedRandom {
    private var state: UInt64

    /// A generator for one purpose (an object, an attribute, a relationship), from the parts that name it.
    init(_ parts: UInt64...) {
        state = SeedRandom.mix(parts)
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SeedRandom.finalize(state)
    }

    /// A number in `0..<bound` (`bound` > 0), by the high half of a 128-bit product.
    mutating func below(_ bound: UInt64) -> UInt64 {
        bound.multipliedFullWidth(by: next()).high
    }

    /// An integer in `range`.
    mutating func integer(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        if span == UInt64.max { return Int64(bitPattern: next()) }
        return range.lowerBound &+ Int64(bitPattern: below(span + 1))
    }

    /// A number in `0..<bound` as an `Int`.
    mutating func index(_ bound: Int) -> Int {
        Int(below(UInt64(max(1, bound))))
    }

    /// A double in `0..<1` with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// True with probability `numerator / denominator`.
    mutating func chance(_ numerator: UInt64, in denominator: UInt64) -> Bool {
        below(denominator) < numerator
    }

    /// SplitMix64's output function: a bijection of 64 bits that scatters nearby inputs.
    static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One 64-bit value from several, order-sensitive.
    static func mix(_ parts: [UInt64]) -> UInt64 {
        var result: UInt64 = 0x243F_6A88_85A3_08D3
        for part in parts {
            result = finalize(result ^ finalize(part &+ 0x9E37_79B9_7F4A_7C15))
        }
        return result
    }

    /// A stable hash of a name (FNV-1a over its UTF-8 bytes): Swift's `Hasher` is seeded per process.
    static func hash(_ text: String) -> UInt64 {
        var result: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            result = (result ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return result
    }
}
