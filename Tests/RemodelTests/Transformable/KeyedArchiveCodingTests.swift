import Foundation
import Testing

@testable import Remodel
@testable import RemodelGeneration

/// The typed values of Transformable attributes (`KeyedArchiveCoding`, which generated records use): every
/// property-list type and nesting of them archived and read back as the same value, in the archive Remodel's reader
/// takes for one Foundation writes (`PropertyListArchive.exact`); another kind of object refused by name; hostile
/// bytes refused, never a crash; and the `customClassName` spellings the generator types.
struct KeyedArchiveCodingTests {
    /// A value of a drawn nesting of the property-list types, archived and read back as its type.
    @Test(arguments: 0..<24)
    func drawnValuesRoundTripThroughTheirArchive(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let strings = (0..<Int.random(in: 0...5, using: &random)).map { _ in Self.text(&random) }
        try Self.roundTrip(strings)
        try Self.roundTrip(
            Dictionary(strings.map { ($0, Int.random(in: .min ... .max, using: &random)) }) { first, _ in first })
        try Self.roundTrip(strings.map { [$0: [Double.random(in: -1e9...1e9, using: &random)]] })
        try Self.roundTrip(Set(strings.map { _ in UUID() }))
        try Self.roundTrip(
            strings.map { _ in
                Date(timeIntervalSinceReferenceDate: Double(Int32.random(in: .min ... .max, using: &random)) / 8)
            })
        try Self.roundTrip([Bool.random(using: &random), true, false])
        try Self.roundTrip(Data(strings.joined().utf8))
        try Self.roundTrip(URL(string: "https://example.com/\(strings.count)?q=\(seed)")!)
        try Self.roundTrip([Int16.random(in: .min ... .max, using: &random)])
        try Self.roundTrip(["nested": ["deeper": strings]])
    }

    static func roundTrip<Value: KeyedArchivable & Equatable>(_ value: Value) throws {
        let data = KeyedArchiveCoding.encode(value)
        #expect(try KeyedArchiveCoding.decode(Value.self, from: data) == value, "\(value)")
        #expect(PropertyListArchive.exact(Array(data)) != nil, "\(value): Remodel's reader takes the archive back")
    }

    static func text(_ random: inout SplitMix64) -> String {
        let alphabet = Array("aZé😀 /\"\\\u{301}\u{0}")
        return String((0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    @Test func anotherKindOfObjectIsRefusedByName() throws {
        let cases: [(Data, String)] = [
            (KeyedArchiveCoding.encode(["a": 1]), "the archive holds a dictionary where an array is wanted"),
            (KeyedArchiveCoding.encode(["a"]), "the archive holds a string where an integer is wanted"),
            (KeyedArchiveCoding.encode([Int64.max]), "the archive's integer 9223372036854775807 does not fit Int16"),
        ]
        for (data, message) in cases {
            let error = #expect(throws: KeyedArchiveError.self) {
                if message.contains("Int16") {
                    _ = try KeyedArchiveCoding.decode([Int16].self, from: data)
                } else {
                    _ = try KeyedArchiveCoding.decode([Int].self, from: data)
                }
            }
            #expect(error?.message == message)
        }
        let keyed = Data(
            PropertyListArchive(root: .dictionary([.init(.integer(1), .string("one"))], mutable: false)).bytes)
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveCoding.decode([String: String].self, from: keyed) }
    }

    /// Bytes of a valid archive with bytes changed at random: each either reads as a value or is refused.
    @Test func hostileBytesAreRefusedNeverACrash() {
        var random = SplitMix64(seed: 41)
        let valid = Array(KeyedArchiveCoding.encode([["a": [1, 2]], ["b": []]]))
        var refused = 0
        for _ in 0..<400 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if (try? KeyedArchiveCoding.decode([[String: [Int]]].self, from: Data(bytes))) == nil { refused += 1 }
        }
        #expect(refused > 0)
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveCoding.decode(String.self, from: Data()) }
    }

    @Test func customClassNamesThatNameAPropertyListTypeAreTyped() {
        let typed: [(String, String)] = [
            ("[String]", "[String]"), ("Array<Int>", "[Int]"), ("Set<UUID>", "Set<UUID>"),
            ("[String: [Date]]", "[String: [Date]]"), ("Dictionary<String, Bool>", "[String: Bool]"),
            ("NSURL", "URL"), ("NSString", "String"), ("[ [String : NSDate] ]", "[[String: Date]]"),
        ]
        for (name, type) in typed { #expect(ArchivedValueType.parse(name)?.spelled == type, "\(name)") }
        for name in [
            "NSArray", "NSDictionary", "NSNumber", "Color", "[Int: String]", "[String", "Array<>", "", "[String]]",
            String(repeating: "[", count: 40) + "String" + String(repeating: "]", count: 40),
        ] {
            #expect(ArchivedValueType.parse(name) == nil, "\(name)")
        }
    }
}
