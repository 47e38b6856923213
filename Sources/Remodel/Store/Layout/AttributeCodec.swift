internal import Foundation

/// Why a value does not fit an attribute; the caller adds the entity, `_pk` and attribute.
package struct ValueProblem: Error {
    /// What is wrong, without the member: `expected a number, found "x"`.
    package var detail: String
    /// The composite member at fault (`["geo", "lat"]`), empty for the attribute itself.
    package var memberPath: [String] = []

    package init(message: String) { detail = message }

    /// The whole sentence: the member, when there is one, then what is wrong (`member "geo.lat": expected …`).
    package var message: String {
        memberPath.isEmpty ? detail : "member \"\(memberPath.joined(separator: "."))\": \(detail)"
    }

    /// The same problem, one member further out (`member` holds the member that held this one).
    func inside(member: String) -> ValueProblem {
        var problem = self
        problem.memberPath.insert(member, at: 0)
        return problem
    }
}

/// Converts one attribute's values between JSON and the store, checking them
/// against the model: type, required, minimum and maximum, regular expression.
///
/// Bounds: numbers compare by value, strings by length in Unicode scalars (as
/// SQLite's `length()` counts), Binary by length in bytes, dates by time
/// (the model gives date bounds in seconds since 2001-01-01 UTC).
package struct AttributeCodec {
    package let attribute: Attribute
    /// A composite's stored members, in order (empty for other types).
    let members: [AttributeCodec]
    private let regex: NSRegularExpression?
    private let minimum: Double?
    private let maximum: Double?

    /// Prepares a codec.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/invalidModel`` when the regular expression does not compile.
    package init(attribute: Attribute, entity: String, version: ModelVersion) throws(RemodelError) {
        try self.init(attribute: attribute, entity: entity, version: version, depth: 0)
    }

    /// A composite's members get codecs of their own, as deep as composites may nest (validation refuses deeper
    /// ones, and cycles; a model that skipped it gets members no deeper than that, never endless recursion).
    private init(attribute: Attribute, entity: String, version: ModelVersion, depth: Int) throws(RemodelError) {
        self.attribute = attribute
        var members: [AttributeCodec] = []
        if depth < ModelVersion.maximumCompositeDepth {
            for member in version.members(of: attribute) {
                members.append(
                    try AttributeCodec(attribute: member, entity: entity, version: version, depth: depth + 1))
            }
        }
        self.members = members
        if let pattern = attribute.regularExpression, !pattern.isEmpty {
            do {
                regex = try NSRegularExpression(pattern: pattern)
            } catch {
                throw RemodelError(
                    .invalidModel,
                    "attribute \"\(attribute.name)\" has a regular expression that does not compile: \(pattern)",
                    location: attribute.source.location(of: "regularExpressionString"), entity: entity,
                    property: attribute.name)
            }
        } else {
            regex = nil
        }
        let shift = attribute.type == .date ? ISODate.referenceDateOffset : 0
        minimum = attribute.minValue.flatMap { Double($0.trimmingSpaces()) }.map { $0 + shift }
        maximum = attribute.maxValue.flatMap { Double($0.trimmingSpaces()) }.map { $0 + shift }
    }

    /// A codec of the type alone: no member, bound or regular expression.
    private init(plain type: AttributeType) {
        attribute = Attribute(name: "", type: type)
        members = []
        regex = nil
        minimum = nil
        maximum = nil
    }

    /// The stored value of a JSON value read as `type`, with no check of bounds or patterns (a value already
    /// stored, read to be converted).
    package static func plainValue(_ json: JSONValue, type: AttributeType) throws(ValueProblem) -> SQLiteValue {
        if case .null = json { return .null }
        return try AttributeCodec(plain: type).convert(json)
    }

    /// The value stored when an imported object leaves the attribute out: its default, or `NULL`.
    package var defaultStoredValue: SQLiteValue {
        guard let text = attribute.defaultValue else { return .null }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .objectID:
            return Int64(text).map(SQLiteValue.integer) ?? .null
        case .double, .float:
            return Double(text).map(SQLiteValue.real) ?? .null
        case .boolean:
            return .integer(["YES", "yes", "true", "1"].contains(text) ? 1 : 0)
        case .date:
            return Double(text).map { .real($0 + ISODate.referenceDateOffset) } ?? .null
        case .decimal:
            return Self.isDecimal(text) ? .text(text) : .null
        case .uuid:
            return UUID(uuidString: text).map { .text($0.uuidString) } ?? .null
        case .string, .uri:
            return .text(text)
        case .binary, .transformable, .composite, .undefined:
            return .null
        }
    }

    /// The stored value of a JSON value, checked against the model.
    package func storedValue(_ json: JSONValue) throws(ValueProblem) -> SQLiteValue {
        if case .null = json {
            guard attribute.isOptional else { throw ValueProblem(message: "a value is required, found null") }
            return .null
        }
        let value = try convert(json)
        try check(value)
        return value
    }

    private func convert(_ json: JSONValue) throws(ValueProblem) -> SQLiteValue {
        let type = attribute.type
        switch type {
        case .integer16, .integer32, .integer64, .objectID:
            guard case .number(let text) = json, let integer = Int64(text) else {
                if case .number(let text) = json, !text.contains("."), !text.contains("e"), !text.contains("E") {
                    throw ValueProblem(message: "expected an integer that fits \(type.rawValue), found \(text)")
                }
                throw mismatch("an integer", json)
            }
            if let range = type.integerRange, !range.contains(integer) {
                throw ValueProblem(message: "expected an integer that fits \(type.rawValue), found \(text)")
            }
            return .integer(integer)
        case .double, .float:
            switch json {
            case .number(let text):
                guard let double = Double(text) else { throw mismatch("a number", json) }
                if type == .float {
                    guard let float = Float(text), float.isFinite || !double.isFinite else {
                        throw ValueProblem(message: "expected a number that fits Float, found \(text)")
                    }
                    return .real(Double(float))
                }
                return .real(double)
            case .string("NaN"): throw ValueProblem(message: "NaN cannot be stored: SQLite keeps it as NULL; use null")
            case .string("Infinity"): return .real(.infinity)
            case .string("-Infinity"): return .real(-.infinity)
            default: throw mismatch("a number", json)
            }
        case .decimal:
            switch json {
            case .string(let text) where Self.isDecimal(text): return .text(text)
            case .number(let text): return .text(text)
            default: throw mismatch("a decimal number as a string", json)
            }
        case .string, .uri:
            guard case .string(let text) = json else { throw mismatch("a string", json) }
            return .text(text)
        case .boolean:
            guard case .bool(let flag) = json else { throw mismatch("true or false", json) }
            return .integer(flag ? 1 : 0)
        case .date:
            // What export writes for a date ISO 8601 has no four-digit year for (seconds since 1970), or for an
            // infinite one, reads back as it was: an export always imports back.
            switch json {
            case .string(let text) where ISODate.parse(text) != nil: return .real(ISODate.parse(text) ?? 0)
            case .number(let text) where Double(text)?.isFinite == true && ISODate.format(Double(text) ?? 0) == nil:
                return .real(Double(text) ?? 0)
            case .string("Infinity"): return .real(.infinity)
            case .string("-Infinity"): return .real(-.infinity)
            default: throw mismatch("an ISO 8601 date such as \"2024-01-02T03:04:05.678Z\"", json)
            }
        case .binary, .transformable:
            if type == .transformable, case .object = json { return .blob(try transformableArchive(json)) }
            guard case .string(let text) = json, let data = Data(base64Encoded: text) else {
                throw mismatch(
                    type == .transformable ? "base64 text or {\"\(Self.archiveKey)\": …}" : "base64 text", json)
            }
            return .blob(data)
        case .uuid:
            guard case .string(let text) = json, let uuid = UUID(uuidString: text) else {
                throw mismatch("a UUID", json)
            }
            return .text(uuid.uuidString)
        case .composite:
            return .text(try compositeText(json))
        case .undefined:
            throw ValueProblem(message: "the attribute has no storage")
        }
    }

    private func check(_ value: SQLiteValue) throws(ValueProblem) {
        let measure: Double?
        let unit: String
        switch value {
        case .integer(let integer) where attribute.type != .boolean:
            measure = Double(integer)
            unit = ""
        case .real(let real) where attribute.type == .date:
            measure = real
            unit = ""
        case .real(let real):
            measure = real
            unit = ""
        case .text(let text) where attribute.type == .decimal:
            measure = Double(text)
            unit = ""
        case .text(let text) where attribute.type == .string || attribute.type == .uri:
            measure = Double(text.unicodeScalars.count)
            unit = " characters"
        case .blob(let data):
            measure = Double(data.count)
            unit = " bytes"
        default:
            measure = nil
            unit = ""
        }
        if let measure {
            if let minimum, measure < minimum {
                throw ValueProblem(
                    message: "must be at least \(bound(minimum))\(unit), found \(describe(value, measure, unit))")
            }
            if let maximum, measure > maximum {
                throw ValueProblem(
                    message: "must be at most \(bound(maximum))\(unit), found \(describe(value, measure, unit))")
            }
        }
        if let regex, case .text(let text) = value {
            let range = NSRange(text.startIndex..., in: text)
            let match = regex.firstMatch(in: text, options: [.anchored], range: range)
            if match?.range != range {
                throw ValueProblem(
                    message:
                        "does not match the regular expression \(regex.pattern), found \(JSONValue.string(text).shortDescription)"
                )
            }
        }
    }

    private func bound(_ value: Double) -> String {
        if attribute.type == .date { return ISODate.format(value) ?? String(value) }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private func describe(_ value: SQLiteValue, _ measure: Double, _ unit: String) -> String {
        if attribute.type == .date { return ISODate.format(measure) ?? String(measure) }
        if !unit.isEmpty { return bound(measure) }
        if case .text(let text) = value { return text }
        return bound(measure)
    }

    func mismatch(_ expected: String, _ json: JSONValue) -> ValueProblem {
        ValueProblem(message: "expected \(expected), found \(json.shortDescription)")
    }

    /// Whether text is a decimal number: `-?digits[.digits][e[+-]digits]`.
    static func isDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, byte >= 0x30, byte <= 0x39 { bytes.removeFirst(); count += 1 }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        var count = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            count += digits()
        }
        guard count > 0 else { return false }
        if let byte = bytes.first, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            bytes.removeFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
