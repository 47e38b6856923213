import Foundation
import Testing

@testable import Remodel

/// Transformable values that are keyed archives of property-list objects: read into objects, written back byte for
/// byte, shown by `export` as `{"$keyedArchive": …}` and imported back into the same bytes; anything else stays
/// base64; hostile archives are refused with a sentence, never a crash.
struct TransformableArchiveTests {
    typealias Value = PropertyListArchive.Value

    /// Every kind of object, nested.
    static let everything: Value = .dictionary(
        [
            .init(.string("name"), .string("Zoë ✓")),
            .init(.string("count"), .integer(-42)),
            .init(.string("big"), .integer(9_000_000_000)),
            .init(.string("ratio"), .real(0.25)),
            .init(.string("whole"), .real(7)),
            .init(.string("on"), .bool(true)),
            .init(.string("bytes"), .data([0, 1, 254, 255])),
            .init(.string("when"), .date(600_000_000.5)),
            .init(.string("exactly"), .date(600_000_000.123456789)),
            .init(.string("id"), .uuid([1, 35, 69, 103, 137, 171, 205, 239, 1, 35, 69, 103, 137, 171, 205, 239])),
            .init(.string("link"), .url("https://example.com/a?b=c")),
            .init(.string("nothing"), .null),
            .init(.string("tags"), .array([.string("red"), .string("blue"), .string("red")], mutable: false)),
            .init(.string("stack"), .array([.integer(1)], mutable: true)),
            .init(.string("unique"), .set([.integer(2), .integer(3)], mutable: false)),
            .init(.string("byNumber"), .dictionary([.init(.integer(1), .string("one"))], mutable: false)),
            .init(
                .string("looksLikeATag"), .dictionary([.init(.string("$date"), .string("not a date"))], mutable: false)),
            .init(.string("editable"), .dictionary([.init(.string("k"), .real(.infinity))], mutable: true)),
        ], mutable: false)

    static let everythingJSON =
        #"{"$keyedArchive": {"name": "Zoë ✓", "count": -42, "big": 9000000000, "ratio": 0.25, "whole": 7.0, "on": true, "bytes": {"$data": "AAH+/w=="}, "when": {"$date": "2020-01-06T10:40:00.500Z"}, "exactly": {"$date": 600000000.1234568}, "id": {"$uuid": "01234567-89AB-CDEF-0123-456789ABCDEF"}, "link": {"$url": "https://example.com/a?b=c"}, "nothing": null, "tags": ["red", "blue", "red"], "stack": {"$mutableArray": [1]}, "unique": {"$set": [2, 3]}, "byNumber": {"$dictionary": [[1, "one"]]}, "looksLikeATag": {"$dictionary": [["$date", "not a date"]]}, "editable": {"$mutableDictionary": {"k": {"$real": "Infinity"}}}}}"#

    private static func codec() throws -> AttributeCodec {
        try AttributeCodec(
            attribute: Attribute(name: "value", type: .transformable), entity: "Thing",
            version: ModelVersion(name: "V", entities: []))
    }

    private static func json(_ bytes: [UInt8]) -> String {
        var output = JSONOutput()
        AttributeCodec.writeJSON(.blob(Data(bytes)), type: .transformable, to: &output)
        return output.text
    }

    private static func imported(_ json: String) throws -> SQLiteValue {
        var parser = JSONPullParser(bytes: Array(json.utf8))
        return try codec().storedValue(try parser.readValue())
    }

    @Test func everyKindIsShownAsJSONAndImportedBackIntoTheSameBytes() throws {
        let bytes = PropertyListArchive(root: Self.everything).bytes
        #expect(PropertyListArchive.exact(bytes) == PropertyListArchive(root: Self.everything))
        #expect(Self.json(bytes) == Self.everythingJSON)
        #expect(try Self.imported(Self.everythingJSON) == .blob(Data(bytes)))
    }

    @Test func bytesThatAreNoArchiveOfPropertyListsStayBase64() throws {
        for bytes in [[UInt8](), Array("not an archive".utf8), Array("bplist00".utf8) + [0, 1, 2]] {
            #expect(Self.json(bytes) == "\"\(Data(bytes).base64EncodedString())\"")
            #expect(try Self.imported(Self.json(bytes)) == .blob(Data(bytes)))
        }
        // A real archive's bytes in another layout than Foundation's (an extra field) stay bytes too.
        var archive = PropertyListArchive(root: .string("x")).bytes
        archive[archive.count - 33] ^= 0xFF
        #expect(Self.json(archive).hasPrefix("\""))
    }

    @Test(arguments: [
        (
            #"{"$keyedArchive": {"$date": "soon"}}"#,
            #"$date takes an ISO 8601 date or seconds since 2001, found "soon""#
        ),
        (
            #"{"$keyedArchive": [1], "extra": 2}"#,
            #"an archive takes "$keyedArchive" and perhaps "$layout": "legacy", found "extra""#
        ),
        (#"{"$keyedArchive": {"a": 1, "a": 2}}"#, "a dictionary of the archive has a key twice"),
        (
            #"{"$keyedArchive": 99999999999999999999}"#,
            "the number 99999999999999999999 of the archive does not fit a 64-bit integer"
        ),
        (#"{"$keyedArchive": {"$uuid": "x"}}"#, #"$uuid takes a UUID, found "x""#),
        (#"{"archive": 1}"#, #"expected base64 text or an object {"$keyedArchive": …}, found an object"#),
    ])
    func refusesAnArchiveItCannotWrite(json: String, message: String) throws {
        let problem = try #require(throws: ValueProblem.self) { try Self.imported(json) }
        #expect(problem.message == message)
    }

    /// Hostile archives (`Fixtures/Reliability/Fuzz/archive`): each refused with a sentence, quickly, and exported
    /// as base64.
    @Test(arguments: [
        ("cycle", "object 1 contains itself"), ("deep", "the objects nest more than 256 deep"),
        ("wrong-class", "is an NSColor, not a property-list object"),
        ("doubling", "the objects spread into more than 2448, one for each byte of the archive"),
        ("huge-count", "not a binary property list"),
    ])
    func refusesHostileArchivesWithASentence(file: String, message: String) throws {
        let bytes = Array(try Data(contentsOf: FuzzRegressionTests.folder.appendingPathComponent("archive/" + file)))
        let clock = ContinuousClock.now
        let failure = try #require(throws: PropertyListArchive.Failure.self) { try PropertyListArchive(archive: bytes) }
        #expect(failure.message.contains(message), "\(failure.message)")
        #expect(PropertyListArchive.exact(bytes) == nil)
        #expect(Self.json(bytes).hasPrefix("\""))
        #expect(ContinuousClock.now - clock < .seconds(2))
    }

    /// Numbers whose JSON would not import back to their bits: a date that is infinite or NaN (JSON has no such
    /// number) and a NaN with a payload leave the whole archive base64, wherever they sit; a date of -0.0 is shown
    /// as its seconds, not as the date of 0.0. Either way the export imports back into the same bytes.
    @Test(arguments: [
        (Value.date(.infinity), nil), (.date(-.infinity), nil), (.date(.nan), nil),
        (.real(Double(bitPattern: 0x7FF8_0000_0000_0ABC)), nil),
        (.date(-0.0), #"{"$keyedArchive": ["x", {"$date": -0.0}]}"#),
        (.real(.nan), #"{"$keyedArchive": ["x", {"$real": "NaN"}]}"#),
    ])
    func numbersWithoutAJSONFormThatImportsBackStayBytes(number: Value, shown: String?) throws {
        let bytes = PropertyListArchive(root: .array([.string("x"), number], mutable: false)).bytes
        #expect(PropertyListArchive.exact(bytes) != nil)
        let json = Self.json(bytes)
        #expect(json == shown ?? "\"\(Data(bytes).base64EncodedString())\"")
        #expect(try Self.imported(json) == .blob(Data(bytes)), "\(json)")
    }

    /// Random graphs: each archive written is read back to the same objects, is one the export shows as JSON, and
    /// that JSON imports back into the same bytes.
    @Test(arguments: 0..<40)
    func randomArchivesRoundTripThroughJSON(seed: UInt64) throws {
        var random = SplitMix64(seed: seed &* 0x9E37 &+ 11)
        let root = Self.randomValue(&random, depth: 0)
        let bytes = PropertyListArchive(root: root, layout: random.next() % 4 == 0 ? .legacy : .current).bytes
        let archive = try #require(PropertyListArchive.exact(bytes), "\(root)")
        #expect(archive.root == root)
        let json = Self.json(bytes)
        #expect(json.hasPrefix("{\"$keyedArchive\": "), "\(json)")
        #expect(try Self.imported(json) == .blob(Data(bytes)), "\(json)")
    }

    static func randomValue(_ random: inout SplitMix64, depth: Int) -> Value {
        let keys = ["a", "b", "$date", "$set", "ü", "long key that needs more than fifteen bytes"]
        switch random.next() % (depth > 3 ? 9 : 13) {
        case 0: return .string(keys[Int(random.next() % UInt64(keys.count))])
        case 1: return .integer(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
        case 2: return .real(Double(Int64(random.next() % 2000) - 1000) / 8)
        case 3: return .bool(random.next() % 2 == 0)
        case 4: return .data((0..<(random.next() % 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 5: return .date(Double(Int64(random.next() % 1_000_000_000)) / 1000)
        case 6: return .uuid((0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 7: return .url("https://example.com/\(random.next() % 100)")
        case 8: return .null
        case 9, 10:
            let elements = (0..<(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) }
            return random.next() % 3 == 0
                ? .set(elements, mutable: random.next() % 2 == 0)
                : .array(elements, mutable: random.next() % 2 == 0)
        default:
            var entries: [PropertyListArchive.Entry] = []
            for _ in 0..<(random.next() % 4) {
                let key: Value =
                    random.next() % 4 == 0
                    ? .integer(Int64(random.next() % 10)) : .string(keys[Int(random.next() % UInt64(keys.count))])
                guard !entries.contains(where: { $0.key == key }) else { continue }
                entries.append(.init(key, randomValue(&random, depth: depth + 1)))
            }
            return .dictionary(entries, mutable: random.next() % 2 == 0)
        }
    }
}
