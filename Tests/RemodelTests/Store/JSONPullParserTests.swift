import Testing

@testable import Remodel
@testable import RemodelModel

struct JSONPullParserTests {
    @Test func readsNestedValuesAndEscapes() throws {
        var parser = JSONPullParser(bytes: Array(#"{"a": [1, -2.5e3, true, null], "b": "x\"\u00e9\ud83d\ude00"}"#.utf8))
        #expect(
            try parser.readValue()
                == .object([
                    ("a", .array([.number("1"), .number("-2.5e3"), .bool(true), .null])), ("b", .string("x\"é😀")),
                ]))
    }

    @Test func rejectsTrailingText() throws {
        var parser = JSONPullParser(bytes: Array("[] x".utf8), path: "f.json")
        _ = try parser.readValue()
        let error = #expect(throws: RemodelError.self) { try parser.expectEnd() }
        #expect(error?.description == "f.json:1:4: expected the end of the file, found 'x'")
    }

    @Test func datesRoundTripWithMilliseconds() {
        #expect(ISODate.parse("2024-01-02T03:04:05.678Z").flatMap(ISODate.format) == "2024-01-02T03:04:05.678Z")
        #expect(ISODate.parse("2024-01-02T05:04:05+02:00").flatMap(ISODate.format) == "2024-01-02T03:04:05.000Z")
        #expect(ISODate.parse("2023-02-29T00:00:00Z") == nil)
        #expect(ISODate.format(-0.001) == "1969-12-31T23:59:59.999Z")
    }

    @Test func escapesMinimally() {
        var output = JSONOutput()
        output.writeString("a\"b\\c\u{1}é\n")
        #expect(output.text == #""a\"b\\c\u0001é\u000a""#)
    }
}
