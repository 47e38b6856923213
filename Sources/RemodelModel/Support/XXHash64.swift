/// XXH64 (Yann Collet's xxHash, 64-bit, seed 0) of bytes given piece by piece: what a store's fingerprint
/// hashes its whole file with. A change-detecting hash, not a cryptographic one: several GB/s where a
/// SHA-256 written in Swift ran at 100 MB/s, so keeping a backup costs one fast read of the migrated store.
/// Checked against xxHash's published values (`StoreFingerprintTests`).
package struct XXHash64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1 &+ prime2, prime2, 0, 0 &- prime1)
    /// Bytes given that do not fill a 32-byte stripe yet.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    package init() {}

    /// Adds the next bytes.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            start = min(32 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<start])
            guard pending.count == 32 else { return }
            pending.withUnsafeBytes { stripes($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - start) - (bytes.count - start) % 32
        stripes(UnsafeRawBufferPointer(rebasing: bytes[start..<start + whole]))
        pending.append(contentsOf: bytes[(start + whole)...])
    }

    /// The hash of every byte given.
    package func finish() -> UInt64 {
        pending.withUnsafeBytes { finish(tail: $0) }
    }

    /// The hash of `bytes` given at once: the same value as ``update(_:)`` then ``finish()``, without keeping the
    /// bytes that do not fill a stripe (no allocation, for the many short texts of a model file's tags).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state = XXHash64()
        let whole = bytes.count - bytes.count % 32
        state.length = UInt64(bytes.count)
        state.stripes(UnsafeRawBufferPointer(rebasing: bytes[0..<whole]))
        return state.finish(tail: UnsafeRawBufferPointer(rebasing: bytes[whole...]))
    }

    /// Folds the lanes, the length and the last bytes (fewer than 32) into the hash.
    private func finish(tail: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64
        if length >= 32 {
            hash = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
            for lane in [lanes.0, lanes.1, lanes.2, lanes.3] {
                hash = (hash ^ Self.round(0, lane)) &* Self.prime1 &+ Self.prime4
            }
        } else {
            hash = Self.prime5
        }
        hash &+= length
        var offset = 0
        while offset + 8 <= tail.count {
            hash =
                rotate(
                    hash ^ Self.round(0, tail.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian),
                    27) &* Self.prime1 &+ Self.prime4
            offset += 8
        }
        if offset + 4 <= tail.count {
            hash =
                rotate(
                    hash
                        ^ (UInt64(tail.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
                            &* Self.prime1),
                    23) &* Self.prime2 &+ Self.prime3
            offset += 4
        }
        while offset < tail.count {
            hash = rotate(hash ^ (UInt64(tail[offset]) &* Self.prime5), 11) &* Self.prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= Self.prime2
        hash ^= hash >> 29
        hash &*= Self.prime3
        hash ^= hash >> 32
        return hash
    }

    /// Folds whole 32-byte stripes into the four lanes.
    private mutating func stripes(_ bytes: UnsafeRawBufferPointer) {
        var (v1, v2, v3, v4) = lanes
        var offset = 0
        while offset + 32 <= bytes.count {
            v1 = Self.round(v1, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
            v2 = Self.round(v2, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian)
            v3 = Self.round(v3, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self).littleEndian)
            v4 = Self.round(v4, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self).littleEndian)
            offset += 32
        }
        lanes = (v1, v2, v3, v4)
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }
}

private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
}
