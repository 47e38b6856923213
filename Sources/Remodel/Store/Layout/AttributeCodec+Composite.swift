/// Composite attributes: the JSON object a store keeps in the attribute's `TEXT` column (docs/STORE-LAYOUT.md,
/// "Composite attributes"). Every member is typed and checked as an attribute of its own is, nested composites
/// too; a stored value that is not such an object is damage, named member by member.
extension AttributeCodec {
    /// The stored text of a composite given as JSON: every member the composite defines, in its order, each in
    /// its export encoding (a member left out is nil). A key the composite does not define, or a member value that
    /// does not fit, is refused naming the member.
    package func compositeText(_ json: JSONValue) throws(ValueProblem) -> String {
        var output = JSONOutput()
        try writeComposite(json, to: &output)
        return output.text
    }

    /// Writes a composite given as JSON in its canonical form (``compositeText(_:)``).
    private func writeComposite(_ json: JSONValue, to output: inout JSONOutput) throws(ValueProblem) {
        guard case .object(let given) = json else { throw mismatch("an object of the composite's members", json) }
        var seen: Set<String> = []
        for (key, _) in given {
            guard members.contains(where: { $0.attribute.name == key }) else {
                let names = members.map { "\"\($0.attribute.name)\"" }.joined(separator: ", ")
                throw ValueProblem(message: "the composite has no member \"\(key)\" (its members: \(names))")
            }
            guard seen.insert(key).inserted else {
                throw ValueProblem(message: "appears twice").inside(member: key)
            }
        }
        output.write("{")
        for (offset, member) in members.enumerated() {
            let value = given.first { $0.key == member.attribute.name }?.value ?? .null
            if offset > 0 { output.write(", ") }
            output.writeString(member.attribute.name)
            output.write(": ")
            do {
                if member.attribute.type == .composite, value != .null {
                    try member.writeComposite(value, to: &output)
                } else {
                    member.writeJSON(try member.storedValue(value), to: &output)
                }
            } catch {
                throw error.inside(member: member.attribute.name)
            }
        }
        output.write("}")
    }

    /// The stored value of a composite read back as its export JSON (the canonical object), every member
    /// checked; a value that is not the text of such an object is refused, naming what is wrong and where.
    package func compositeJSON(stored value: SQLiteValue) throws(ValueProblem) -> String {
        guard case .text(let text) = value else {
            throw ValueProblem(message: "is not the text of a JSON object but \(Self.storageClassName(of: value))")
        }
        var parser = JSONPullParser(bytes: Array(text.utf8), path: "the stored value")
        let json: JSONValue
        do {
            json = try parser.readValue()
            try parser.expectEnd()
        } catch {
            throw ValueProblem(message: "is not valid JSON (\(error.message))")
        }
        return try compositeText(json)
    }

    /// What is wrong with a stored composite value, or nil when it reads as one (NULL reads as nil).
    package func compositeProblem(stored value: SQLiteValue) -> ValueProblem? {
        if case .null = value { return nil }
        do {
            _ = try compositeJSON(stored: value)
            return nil
        } catch {
            return error
        }
    }

    static func storageClassName(of value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer: return "an integer"
        case .real: return "a real number"
        case .text: return "text"
        case .blob: return "a blob"
        }
    }
}
