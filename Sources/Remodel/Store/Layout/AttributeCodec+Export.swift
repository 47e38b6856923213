internal import Foundation

extension AttributeCodec {
    /// Writes a stored value as export JSON: Date as ISO 8601 UTC with milliseconds, Decimal as a
    /// string, Binary as base64, Boolean as `true`/`false`, Double shortest round-trip (non-finite
    /// values as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`), Composite as its stored JSON object, Transformable
    /// as its keyed archive's objects when it is one this build writes back byte for byte, else base64.
    package func writeJSON(_ value: SQLiteValue, to output: inout JSONOutput) {
        Self.writeJSON(value, type: attribute.type, to: &output)
    }

    package static func writeJSON(_ value: SQLiteValue, type: AttributeType, to output: inout JSONOutput) {
        switch value {
        case .null:
            output.write("null")
        case .integer(let integer):
            switch type {
            case .boolean: output.write(integer != 0 ? "true" : "false")
            case .double, .float, .date: writeReal(Double(integer), type: type, to: &output)
            case .decimal, .string, .uri, .uuid: output.writeString(String(integer))
            default: output.write(integer)
            }
        case .real(let real):
            if type.isInteger || type == .objectID || type == .boolean, real == real.rounded(), abs(real) < 9e18 {
                writeJSON(.integer(Int64(real)), type: type, to: &output)
            } else {
                writeReal(real, type: type, to: &output)
            }
        case .text(let text):
            if type == .composite {
                output.write(raw: text)
            } else {
                output.writeString(text)
            }
        case .blob(let data):
            if type == .transformable {
                writeTransformable(data, to: &output)
            } else {
                output.writeString(data.base64EncodedString())
            }
        }
    }

    static func writeReal(_ real: Double, type: AttributeType, to output: inout JSONOutput) {
        if type == .date, let text = ISODate.format(real) {
            output.writeString(text)
        } else if real.isNaN {
            output.write("\"NaN\"")
        } else if real.isInfinite {
            output.write(real < 0 ? "\"-Infinity\"" : "\"Infinity\"")
        } else if type == .float {
            output.write(raw: Float(real).description)
        } else {
            output.write(raw: real.description)
        }
    }
}
