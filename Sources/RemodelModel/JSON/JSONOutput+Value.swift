extension JSONOutput {
    /// Writes a parsed value back as JSON, objects and arrays with the export's `", "` and `": "` separators,
    /// numbers as they were written.
    package mutating func write(json value: JSONValue) {
        switch value {
        case .null: write("null")
        case .bool(let flag): flag ? write("true") : write("false")
        case .number(let text): write(raw: text)
        case .string(let text): writeString(text)
        case .array(let values):
            write("[")
            for (offset, element) in values.enumerated() {
                if offset > 0 { write(", ") }
                write(json: element)
            }
            write("]")
        case .object(let members):
            write("{")
            for (offset, member) in members.enumerated() {
                if offset > 0 { write(", ") }
                writeString(member.key)
                write(": ")
                write(json: member.value)
            }
            write("}")
        }
    }
}
