import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// The DEFLATE decoder against streams zlib wrote (Python's `zlib.compressobj(level, DEFLATED, -15, 9,
/// strategy)`, kept in `Fixtures/Store/Deflate/`) of the same 20,000 bytes: text that repeats (matches)
/// with one byte in four drawn at random (literals whose codes run to 12 bits, past the decoder's 9-bit
/// table). Every kind of block is there: dynamic, fixed, Huffman only, stored, and dynamic blocks each
/// followed by a sync flush's empty stored block. `tiny-blocks` (Huffman only, a sync flush after each run
/// of one letter) has dynamic blocks whose end code is 1 bit long, so a stored block starts at a byte the
/// table has already read.
struct RawDeflateTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Store/Deflate")

    /// The bytes zlib compressed, made as the script that wrote the fixtures made them.
    static let original: [UInt8] = {
        let text = Array("the model archive ".utf8)
        var x: UInt32 = 1
        return (0..<20_000).map { index in
            x = (x &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
            let random = x >> 16
            return random % 4 != 0 ? text[index % text.count] : UInt8((random >> 2) & 0xFF)
        }
    }()

    static func stream(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name + ".deflate")))
    }

    @Test(arguments: ["dynamic", "fixed", "huffman-only", "stored", "sync-flushes"])
    func inflatesWhatZlibWrote(stream: String) throws {
        let inflated = try RawDeflate.inflate(try Self.stream(stream), limit: 1 << 20)
        #expect(inflated.count == Self.original.count)
        #expect(inflated == Self.original)
    }

    @Test func inflatesBlocksOfAFewBits() throws {
        let original = (0..<60).flatMap { run in Array(repeating: UInt8(97 + run % 26), count: 40 + run) }
        #expect(try RawDeflate.inflate(try Self.stream("tiny-blocks"), limit: 1 << 20) == original)
    }

    @Test func refusesAStreamCutShort() throws {
        let stream = try Self.stream("dynamic")
        for length in [1, 100, stream.count / 2, stream.count - 1] {
            let error = try #require(throws: RawDeflate.Failure.self) {
                try RawDeflate.inflate(Array(stream.prefix(length)), limit: 1 << 20)
            }
            #expect(error.message.hasPrefix("the data ends in the middle of a block"), "\(length): \(error.message)")
        }
    }

    @Test func refusesOutputPastTheLimit() throws {
        let error = try #require(throws: RawDeflate.Failure.self) {
            try RawDeflate.inflate(try Self.stream("dynamic"), limit: 19_999)
        }
        #expect(error.message == "it decompresses to more than 19999 bytes")
    }
}
