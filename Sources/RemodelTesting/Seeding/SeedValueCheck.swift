import Remodel

/// Checks a generated value exactly as `remodel import` will: written as
/// JSON, read back, and run through the importer's checks of type, required,
/// bounds and regular expression.
struct SeedValueCheck {
    private let codec: AttributeCodec

    /// - Throws: ``RemodelError`` when the attribute's regular expression does not compile.
    init(attribute: Attribute, entity: String, version: ModelVersion) throws(RemodelError) {
        codec = try AttributeCodec(attribute: attribute, entity: entity, version: version)
    }

    /// Why the importer would refuse the value, or nil when it would take it.
    func failure(_ value: SQLiteValue) -> String? {
        var output = JSONOutput()
        codec.writeJSON(value, to: &output)
        var parser = JSONPullParser(bytes: output.bytes)
        do {
            _ = try codec.storedValue(try parser.readValue())
            return nil
        } catch let problem as ValueProblem {
            return problem.message
        } catch {
            return "\(error)"
        }
    }
}
