internal import Foundation
import Remodel

/// How the generator makes one attribute's values: the kind of value and
/// its bounds, read from the model once.
///
/// Values are the store's encoding (``SQLiteValue``), written to JSON by the
/// exporter's own code, so a generated file reads back and exports to the
/// same bytes.
struct AttributeValues {
    /// What kind of value, within which bounds.
    indirect enum Kind {
        case integer(ClosedRange<Int64>)
        case real(ClosedRange<Double>, float: Bool)
        /// Decimals in hundredths.
        case decimal(ClosedRange<Int64>)
        case text(minimum: Int, maximum: Int, uri: Bool)
        /// Strings of a regular expression, each checked as the importer checks it (`check`).
        case pattern(RegexSubset, check: SeedValueCheck, minimum: Int, maximum: Int)
        case boolean
        /// Milliseconds since 1970.
        case date(ClosedRange<Int64>)
        case binary(minimum: Int, maximum: Int)
        /// Keyed archives of a Transformable attribute's typed value (``ArchivedValueType``), as the generated
        /// records read them.
        case archive(ArchivedValueType)
        case uuid
        case composite([AttributeValues])
        /// No value can be made: the attribute is left empty (or takes its default).
        case none
    }

    let attribute: Attribute
    let kind: Kind
    /// The model's default, when it is a valid value; used for some objects.
    let defaultValue: SQLiteValue?

    /// Reads an attribute's bounds; `problem` says why a value of its type cannot be made, if it cannot.
    init(attribute: Attribute, version: ModelVersion) {
        self.attribute = attribute
        defaultValue = ModelDefaultValue.stored(for: attribute)
        var reason: String?
        kind = Self.kind(of: attribute, version: version, reason: &reason)
        problem = reason
    }

    private init(attribute: Attribute, kind: Kind, defaultValue: SQLiteValue?, problem: String?) {
        self.attribute = attribute
        self.kind = kind
        self.defaultValue = defaultValue
        self.problem = problem
    }

    /// Why no value can be made, when ``kind`` is ``Kind/none``.
    let problem: String?

    /// The same attribute, giving up on values (after they failed the model's checks).
    func withoutValues(_ problem: String) -> AttributeValues {
        AttributeValues(attribute: attribute, kind: .none, defaultValue: defaultValue, problem: problem)
    }

    /// The same attribute without its default (a default that breaks the model's own rules).
    func withoutDefault() -> AttributeValues {
        AttributeValues(attribute: attribute, kind: kind, defaultValue: nil, problem: problem)
    }

    private static func number(_ text: String?) -> Double? {
        text.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0.isFinite ? $0 : nil }
    }

    private static func length(_ text: String?) -> Int? {
        number(text).map { $0 <= 0 ? 0 : $0 >= 1_000_000 ? 1_000_000 : Int($0.rounded(.up)) }
    }

    private static func kind(of attribute: Attribute, version: ModelVersion, reason: inout String?) -> Kind {
        let low = number(attribute.minValue)
        let high = number(attribute.maxValue)
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            let range = attribute.type.integerRange ?? Int64.min...Int64.max
            let lower = low.map { max(range.lowerBound, Self.clampedInteger($0.rounded(.up))) } ?? range.lowerBound
            let upper = high.map { min(range.upperBound, Self.clampedInteger($0.rounded(.down))) } ?? range.upperBound
            guard lower <= upper else {
                reason =
                    "its minimum \(attribute.minValue ?? "") is above its maximum \(attribute.maxValue ?? "") for \(attribute.type.rawValue)"
                return .none
            }
            return .integer(lower...upper)
        case .objectID:
            return .integer(1...1_000_000)
        case .double, .float:
            let limit =
                attribute.type == .float ? Double(Float.greatestFiniteMagnitude) : Double.greatestFiniteMagnitude
            let lower = max(low ?? -limit, -limit)
            let upper = min(high ?? limit, limit)
            guard lower <= upper else {
                reason = "its minimum \(attribute.minValue ?? "") is above its maximum \(attribute.maxValue ?? "")"
                return .none
            }
            return .real(lower...upper, float: attribute.type == .float)
        case .decimal:
            let lower = low.map { Self.clampedInteger(($0 * 100).rounded(.up)) } ?? -1_000_000_000_000
            let upper = high.map { Self.clampedInteger(($0 * 100).rounded(.down)) } ?? 1_000_000_000_000
            guard lower <= upper else {
                reason = "its minimum \(attribute.minValue ?? "") is above its maximum \(attribute.maxValue ?? "")"
                return .none
            }
            return .decimal(lower...upper)
        case .string, .uri:
            let minimum = length(attribute.minValue) ?? 0
            let maximum = length(attribute.maxValue) ?? Int.max
            guard minimum <= maximum else {
                reason = "its minimum length \(minimum) is above its maximum length \(maximum)"
                return .none
            }
            if let pattern = attribute.regularExpression, !pattern.isEmpty {
                let regex: RegexSubset
                do {
                    regex = try RegexSubset(pattern)
                } catch {
                    reason =
                        "its regular expression \(pattern) uses \(error.reason), which the generator does not write strings for "
                        + "(it handles literals, classes, quantifiers, groups, alternation and anchors)"
                    return .none
                }
                do {
                    let check = try SeedValueCheck(attribute: attribute, entity: "", version: version)
                    return .pattern(regex, check: check, minimum: minimum, maximum: maximum)
                } catch {
                    reason = "its regular expression \(pattern) does not compile"
                    return .none
                }
            }
            return .text(minimum: minimum, maximum: maximum, uri: attribute.type == .uri)
        case .boolean:
            return .boolean
        case .date:
            let offset = ISODate.referenceDateOffset
            let lower = low.map { Self.clampedInteger((($0 + offset) * 1000).rounded(.up)) } ?? -2_208_988_800_000
            let upper = high.map { Self.clampedInteger((($0 + offset) * 1000).rounded(.down)) } ?? 4_102_444_800_000
            guard lower <= upper else {
                reason = "its earliest date is after its latest date"
                return .none
            }
            return .date(lower...upper)
        case .binary, .transformable:
            if attribute.type == .transformable, attribute.minValue == nil, attribute.maxValue == nil,
                let type = attribute.source.attribute("customClassName").flatMap(ArchivedValueType.parse)
            {
                return .archive(type)
            }
            let minimum = length(attribute.minValue) ?? 0
            let maximum = length(attribute.maxValue) ?? Int.max
            guard minimum <= maximum else {
                reason = "its minimum size \(minimum) is above its maximum size \(maximum)"
                return .none
            }
            return .binary(minimum: minimum, maximum: maximum)
        case .uuid:
            return .uuid
        case .composite:
            guard let composite = attribute.compositeName.flatMap(version.composite(named:)) else {
                reason = "its composite \(attribute.compositeName ?? "(none)") is not in the model"
                return .none
            }
            return .composite(
                composite.attributes.filter(\.isStored).map { AttributeValues(attribute: $0, version: version) })
        case .undefined:
            reason = "it has no storage"
            return .none
        }
    }

    static func clampedInteger(_ value: Double) -> Int64 {
        value >= 9.2e18 ? Int64.max : value <= -9.2e18 ? Int64.min : Int64(value)
    }

    // MARK: - Random values

    /// A random value; with `usesDefault`, sometimes the model's default.
    func random(_ random: inout SeedRandom, usesDefault: Bool = true) -> SQLiteValue {
        if usesDefault, let defaultValue, random.chance(1, in: 4) { return defaultValue }
        switch kind {
        case .integer(let range):
            return .integer(Self.integer(in: range, &random))
        case .real(let range, let float):
            return .real(Self.real(in: range, float: float, &random))
        case .decimal(let range):
            return .text(Self.decimalText(Self.integer(in: range, &random)))
        case .text(let minimum, let maximum, let uri):
            return .text(SeedText.random(minimum: minimum, maximum: maximum, uri: uri, &random))
        case .pattern(let regex, let check, _, _):
            return SeedText.matching(regex, check: check, &random).map(SQLiteValue.text) ?? .null
        case .boolean:
            return .integer(random.chance(1, in: 2) ? 1 : 0)
        case .date(let range):
            return .real(
                Double(Self.integer(in: range, everyday: -631_152_000_000...2_208_988_800_000, &random)) / 1000)
        case .binary(let minimum, let maximum):
            let count = minimum + random.index(min(maximum, minimum + 32) - minimum + 1)
            return .blob(Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        case .archive(let type):
            return .blob(SeedArchive.bytes(of: type, &random))
        case .uuid:
            return .text(Self.uuid(high: random.next(), low: random.next()))
        case .composite(let members):
            return .text(Self.compositeText(members.map { ($0.attribute, $0.random(&random)) }))
        case .none:
            return defaultValue ?? .null
        }
    }

    /// Mostly values of everyday size (for dates, 1950 to 2040); one time in eight an edge of the range.
    private static func integer(
        in range: ClosedRange<Int64>, everyday: ClosedRange<Int64> = -100...10_000, _ random: inout SeedRandom
    ) -> Int64 {
        if random.chance(1, in: 8) {
            let edges = [range.lowerBound, range.upperBound, 0, -1, 1].filter(range.contains)
            return edges[random.index(edges.count)]
        }
        let bounded = range.clamped(to: everyday)
        return random.integer(in: range.overlaps(everyday) ? bounded : range)
    }

    private static func real(in range: ClosedRange<Double>, float: Bool, _ random: inout SeedRandom) -> Double {
        let everyday: ClosedRange<Double> = -1000...100_000
        let span = range.overlaps(everyday) ? range.clamped(to: everyday) : range
        var value: Double
        if random.chance(1, in: 8) {
            let edges = [range.lowerBound, range.upperBound, 0].filter(range.contains)
            value = edges[random.index(edges.count)]
        } else {
            value = span.lowerBound + (span.upperBound - span.lowerBound) * random.unit()
            let rounded = (value * 100).rounded() / 100
            if range.contains(rounded) { value = rounded }
        }
        return float ? Self.float(value, within: range) : value
    }

    /// The `Float` nearest `value` that is still within `range` (as the importer compares it, widened to `Double`).
    static func float(_ value: Double, within range: ClosedRange<Double>) -> Double {
        var result = Float(value)
        if Double(result) < range.lowerBound { result = result.nextUp }
        if Double(result) > range.upperBound { result = result.nextDown }
        return Double(result)
    }

    /// Hundredths as decimal text: `-12.05`.
    static func decimalText(_ hundredths: Int64) -> String {
        let magnitude = hundredths.magnitude
        let fraction = magnitude % 100
        return (hundredths < 0 ? "-" : "") + String(magnitude / 100) + "." + (fraction < 10 ? "0" : "")
            + String(fraction)
    }

    /// A version 4 UUID, uppercase canonical, from 128 bits.
    static func uuid(high: UInt64, low: UInt64) -> String {
        let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        return hex(high >> 32, 8) + "-" + hex((high >> 16) & 0xFFFF, 4) + "-" + hex(high & 0xFFFF, 4) + "-"
            + hex(low >> 48, 4) + "-" + hex(low & 0xFFFF_FFFF_FFFF, 12)
    }

    /// A composite's stored text, exactly as the importer writes it: members in order, each in export encoding.
    static func compositeText(_ members: [(Attribute, SQLiteValue)]) -> String {
        var output = JSONOutput()
        output.write("{")
        for (offset, (member, value)) in members.enumerated() {
            if offset > 0 { output.write(", ") }
            output.writeString(member.name)
            output.write(": ")
            AttributeCodec.writeJSON(value, type: member.type, to: &output)
        }
        output.write("}")
        return output.text
    }
}
