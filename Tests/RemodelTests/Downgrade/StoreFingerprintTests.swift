import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The hash behind a store's fingerprint: xxHash's XXH64 (seed 0), against its published values, the same
/// whatever pieces the bytes come in.
struct StoreFingerprintTests {
    private static func hash(_ bytes: [UInt8], pieces: Int? = nil) -> String {
        var hasher = XXHash64()
        bytes.withUnsafeBytes { all in
            let size = max(1, pieces ?? all.count)
            var offset = 0
            repeat {
                let end = min(offset + size, all.count)
                hasher.update(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            } while offset < all.count
        }
        return String(hasher.finish(), radix: 16)
    }

    @Test(arguments: [
        ("", "ef46db3751d8e999"), ("abc", "44bc2cf5ad770999"),
        ("Nobody inspects the spammish repetition", "fbcea83c8a378bf1"),
    ])
    func matchesXXH64(message: String, hash: String) {
        #expect(Self.hash(Array(message.utf8)) == hash)
    }

    /// The one-shot hash (a model file's tags are hashed with it) is XXH64 too, at every length around the
    /// 32-byte stripe and the 8- and 4-byte tails.
    @Test func theHashOfBytesGivenAtOnceIsTheSame() {
        #expect(String(XXHash64.hash(UnsafeRawBufferPointer(start: nil, count: 0)), radix: 16) == "ef46db3751d8e999")
        #expect(Array("abc".utf8).withUnsafeBytes { String(XXHash64.hash($0), radix: 16) } == "44bc2cf5ad770999")
        let bytes = (0..<130).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        for count in 0...bytes.count {
            let prefix = Array(bytes[0..<count])
            #expect(prefix.withUnsafeBytes { String(XXHash64.hash($0), radix: 16) } == Self.hash(prefix), "\(count)")
        }
    }

    @Test(arguments: [1, 7, 31, 32, 33, 64, 1000])
    func piecesDoNotChangeTheHash(piece: Int) {
        let bytes = (0..<4099).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        #expect(Self.hash(bytes, pieces: piece) == Self.hash(bytes))
    }

    @Test func oneByteChangedAnywhereChangesTheFingerprint() throws {
        let folder = try TemporaryFolder()
        let bytes = (0..<8192).map { UInt8(truncatingIfNeeded: $0) }
        let path = folder.file("file")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let whole = try StoreFingerprint.of(path: path)
        #expect(whole.size == 8192)
        // Header bytes 24…27 (SQLite's change counter) read as big-endian: 24, 25, 26, 27.
        #expect(whole.changeCounter == 0x1819_1A1B)
        for offset in [0, 100, 4095, 8191] {
            var changed = bytes
            changed[offset] ^= 1
            try Data(changed).write(to: URL(fileURLWithPath: path))
            #expect(try StoreFingerprint.of(path: path).hash != whole.hash, "byte \(offset)")
        }
    }
}
