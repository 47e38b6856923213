import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The SHA-256 behind version hashes, against the test vectors published with FIPS 180-4
/// (NIST's "SHA256.pdf" examples) and messages around the 55/56/64-byte padding edges.
struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func matchesThePublishedVectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(message.utf8) == digest)
    }

    @Test func hashesAMillionAs() {
        #expect(
            SHA256.hexDigest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [55, 56, 63, 64, 65, 119, 120])
    func paddingEdgesAgreeWithAByteAtATimeDefinition(length: Int) {
        // Lengths where the length field does or does not fit in the last block: each digest differs
        // from its neighbours and is stable (a wrong padding collapses or shifts them).
        let message = [UInt8](repeating: 0x61, count: length)
        #expect(SHA256.digest(message).count == 32)
        #expect(SHA256.hexDigest(message) != SHA256.hexDigest(message.dropLast()))
    }

    /// Version hashes written into existing stores before the hash was computed here: they must not move.
    @Test func versionHashesOfTheSampleModelAreUnchanged() throws {
        let bundle = try ModelBundle(
            contentsOf: ValidationSupport.packageRoot.appendingPathComponent("Models/Library.xcdatamodeld").path)
        let version = try #require(bundle.version(named: "Library"))
        #expect(version.entityHashes["Book"] == "8c0b2bfe7a4ca00e0d9bf44849e40ba2252eb94c5c02e83fd242068b0b6d2f5f")
        #expect(version.entityHashes["Person"] == "fb59ee9f725b3fdceb1423b3f6408b61a827f19202c3507efc9fec2037856899")
        #expect(version.modelHash == "fff217294b595f86319ca59358e9752c7037f2f5f832ec19b6dd9507306a6600")
    }
}
