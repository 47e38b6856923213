import Foundation

/// The reading half of a policy's copy, on a thread of its own: streams the
/// source objects in `_pk` batches through its own connection to the source
/// store, runs the policy on each and sends what it makes down a
/// ``PolicyChannel`` — while the migration's thread inserts the previous chunk.
struct PolicyReader: Sendable {
    /// The source store's file.
    let sourcePath: String
    /// The schema name the SQL uses for the source store.
    let sourceSchema: String
    /// Selects `_pk` and the readable columns of one batch; parameters: entity, last `_pk`,
    /// the filter's parameters, the batch size.
    let sql: String
    let entity: String
    let filterParameters: [SQLiteValue]
    let names: NameIndex
    let policy: EntityPolicy
    let batchSize: Int
    /// Source objects a message.
    let chunkSize: Int

    /// Starts reading on a new thread.
    /// The channel tells the writer when the reader is done: nothing waits for the thread itself.
    func start(sending channel: PolicyChannel) {
        _ = BackgroundThread(stackSize: 8 << 20) {
            do throws(RemodelError) {
                try read(into: channel)
            } catch {
                var spare: [MadeObjects]?
                _ = channel.send(.failed(error), spare: &spare)
            }
            channel.readerFinished()
        }
    }

    private func read(into channel: PolicyChannel) throws(RemodelError) {
        let connection = try SQLiteConnection(path: ":memory:")
        try ExpressionFunctions.register(on: connection)
        try connection.attach(path: sourcePath, as: sourceSchema, readOnly: true)
        // Reading once in key order gains nothing from a page cache: keep it small.
        try connection.execute("PRAGMA \(quoteIdentifier(sourceSchema)).cache_size = -256")
        let select = try connection.prepare(sql)
        let utf8 = try connection.scalar("PRAGMA main.encoding") == .text("UTF-8")
        // One array for every row: once the policy has let go of a row's object, the next row
        // is read into the same storage (a policy that keeps an object keeps its own copy).
        var row = [SQLiteValue](repeating: .null, count: names.names.count)
        var after = Int64.min
        var spare: [MadeObjects]?
        var chunk: [MadeObjects] = []
        chunk.reserveCapacity(chunkSize)
        while true {
            var read = 0
            try select.bind([.text(entity), .integer(after)] + filterParameters + [.integer(Int64(batchSize))])
            while try select.step() {
                let key = select.int64(at: 0)
                for column in row.indices {
                    row[column] = utf8 ? select.valueFromUTF8Database(at: column + 1) : select.value(at: column + 1)
                }
                after = key
                read += 1
                chunk.append(
                    MadeObjects(
                        sourceKey: key,
                        objects: try make(SourceObject(primaryKey: key, entity: entity, names: names, values: row))))
                if chunk.count == chunkSize {
                    guard send(&chunk, to: channel, spare: &spare) else { return }
                }
            }
            select.reset()
            let last = read < batchSize
            guard chunk.isEmpty || send(&chunk, to: channel, spare: &spare),
                channel.send(.batchEnd(read: read, last: last), spare: &spare), !last
            else { return }
        }
    }

    /// Sends a chunk and starts the next one, in the storage of one the writer handed back when there is one.
    private func send(_ chunk: inout [MadeObjects], to channel: PolicyChannel, spare: inout [MadeObjects]?) -> Bool {
        let full = chunk
        chunk = spare ?? []
        spare = nil
        chunk.reserveCapacity(chunkSize)
        return channel.send(.objects(full), spare: &spare)
    }

    /// Runs the policy on one source object.
    private func make(_ object: SourceObject) throws(RemodelError) -> [DestinationObject] {
        do {
            return try policy.transform(object)
        } catch {
            throw RemodelError(
                .invalidValue,
                "the migration policy for \(policy.destination) failed on \(object.entity) _pk \(object.primaryKey): \(error)",
                entity: object.entity, primaryKey: object.primaryKey, cause: error)
        }
    }
}
