import Foundation

/// The objects a policy made from one source object.
struct MadeObjects: Sendable {
    /// The source object's `_pk`.
    let sourceKey: Int64
    let objects: [DestinationObject]
}

/// Carries a policy's objects from the thread that reads the source and runs
/// the policy to the one that inserts them, a few chunks at a time at most, so
/// memory stays flat while both threads work.
///
/// The reader ``send(_:spare:)``s until it is done or a send fails (the writer has
/// stopped and ``close()``d the channel); the writer ``receive()``s, hands
/// each chunk it has inserted back with ``recycle(_:)`` (so the memory the
/// reader's thread allocated is freed there, where the allocator reuses it
/// best), and calls ``close()`` then ``waitForReader()`` before it returns,
/// whatever happened.
final class PolicyChannel: @unchecked Sendable {
    enum Message: Sendable {
        /// Objects made, in source key order.
        case objects([MadeObjects])
        /// A batch of source objects was read (`read` of them); `last` when there are no more.
        case batchEnd(read: Int, last: Bool)
        /// Reading or the policy failed; nothing more comes.
        case failed(RemodelError)
    }

    // Every property below is guarded by `condition`.
    private let condition = ThreadCondition()
    /// A ring of messages: `count` of them from `first` on.
    private var slots: [Message?]
    private var first = 0
    private var count = 0
    private var closed = false
    private var readerRunning = true
    /// Chunks the writer is done with, for the reader to let go of.
    private var recycled: [[MadeObjects]] = []

    /// - Parameter capacity: How many messages may wait before the reader waits.
    init(capacity: Int) {
        slots = Array(repeating: nil, count: max(1, capacity))
    }

    /// Hands a message to the writer, waiting while the channel is full; `false` when the writer has stopped.
    /// - Parameter spare: Gets an empty chunk whose storage can be filled again, when the writer has handed one back.
    func send(_ message: Message, spare: inout [MadeObjects]?) -> Bool {
        var done: [[MadeObjects]] = []
        condition.lock()
        defer {
            condition.unlock()
            // Frees the writer's finished chunks on this thread, outside the lock, and keeps one chunk's
            // storage: a new chunk is a large allocation, which makes the allocator sort all its small free blocks.
            if var last = done.popLast() {
                last.removeAll(keepingCapacity: true)
                spare = last
            }
            done.removeAll()
        }
        while !closed && count == slots.count { condition.wait() }
        swap(&done, &recycled)
        guard !closed else { return false }
        slots[(first + count) % slots.count] = message
        count += 1
        condition.broadcast()
        return true
    }

    /// Hands a chunk the writer has inserted back to the reader, to be freed on its thread.
    func recycle(_ chunk: [MadeObjects]) {
        condition.lock()
        if !closed { recycled.append(chunk) }
        condition.unlock()
    }

    /// The next message, waiting for one.
    func receive() -> Message {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 {
            if !readerRunning {
                return .failed(
                    RemodelError(
                        .invalidValue, "the migration policy's reading thread ended without finishing its entity"))
            }
            condition.wait()
        }
        let message = slots[first]
        slots[first] = nil
        first = (first + 1) % slots.count
        count -= 1
        condition.broadcast()
        return message ?? .failed(RemodelError(.invalidValue, "the migration policy's reading thread lost a message"))
    }

    /// Stops the reader: its next send fails, and messages waiting are dropped.
    func close() {
        condition.lock()
        closed = true
        recycled.removeAll()
        for index in slots.indices { slots[index] = nil }
        count = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Called by the reader as it ends.
    func readerFinished() {
        condition.lock()
        readerRunning = false
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the reader has ended.
    func waitForReader() {
        condition.lock()
        while readerRunning { condition.wait() }
        condition.unlock()
    }
}
