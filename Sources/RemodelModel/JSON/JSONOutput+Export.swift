/// The pieces of the export format's layout (see `docs/JSON.md`) that the
/// exporter and the seed generator both write.
extension JSONOutput {
    /// Writes `{`, each entity as `"Name": [` followed by its objects (written by `objects`, which returns
    /// how many it wrote) and `]`, then `}` and a newline, and flushes.
    package mutating func writeExport(
        entities: [Entity], objects: (Entity, inout JSONOutput) throws(RemodelError) -> Int
    ) throws(RemodelError) {
        write("{")
        for (offset, entity) in entities.enumerated() {
            write(offset == 0 ? "\n  " : ",\n  ")
            writeString(entity.name)
            write(": [")
            let count = try objects(entity, &self)
            write(count == 0 ? "]" : "\n  ]")
        }
        write("\n}\n")
        try flush()
    }

    /// Starts an object on its own line with its `_pk` (the first of an entity without a comma before it).
    package mutating func writeObjectStart(first: Bool, primaryKey: Int64) {
        write(bytes: first ? Self.firstObjectStart : Self.objectStart)
        write(primaryKey)
    }

    /// `\n    {"_pk": `: the start of an entity's first object.
    private static let firstObjectStart = Array("\n    {\"\(StoreColumn.pk)\": ".utf8)
    /// `,\n    {"_pk": `: the start of every other object.
    private static let objectStart = Array(",\n    {\"\(StoreColumn.pk)\": ".utf8)

    /// `, "name": ` as bytes, to write before a value.
    package static func keyBytes(_ name: String) -> [UInt8] {
        var output = JSONOutput()
        output.write(", ")
        output.writeString(name)
        output.write(": ")
        return output.bytes
    }
}
