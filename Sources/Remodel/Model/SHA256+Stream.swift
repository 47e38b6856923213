extension SHA256 {
    /// A digest of bytes given piece by piece — a file read a chunk at a time — equal to
    /// ``SHA256/digest(_:)`` of them all, without holding them all in memory.
    struct Stream {
        private var state = SHA256.initialState
        private var schedule = [UInt32](repeating: 0, count: 64)
        /// Bytes given that do not fill a block yet.
        private var pending: [UInt8] = []
        private var length: UInt64 = 0

        /// Adds the next bytes.
        mutating func update<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
            length &+= UInt64(bytes.count)
            pending.append(contentsOf: bytes)
            let whole = pending.count - pending.count % 64
            guard whole > 0 else { return }
            for blockStart in stride(from: 0, to: whole, by: 64) {
                SHA256.compress(&state, schedule: &schedule, block: pending, at: blockStart)
            }
            pending.removeFirst(whole)
        }

        /// The 32-byte digest of every byte given.
        mutating func finish() -> [UInt8] {
            let bitLength = length &* 8
            var tail = pending
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
            for blockStart in stride(from: 0, to: tail.count, by: 64) {
                SHA256.compress(&state, schedule: &schedule, block: tail, at: blockStart)
            }
            pending = []
            return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
        }
    }
}
