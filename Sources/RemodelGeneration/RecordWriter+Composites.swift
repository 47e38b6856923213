import RemodelModel

/// Composite attributes in the records: one `Codable` struct per composite of the version, nested in the schema
/// enum, its members typed as attributes are (a nested composite is its own struct). The column holds the
/// composite as a JSON object of its members (docs/STORE-LAYOUT.md, "Composite attributes"); the struct's coding
/// is that object's, so GRDB's JSON columns and the records' own `Codable` read it the same way.
extension RecordWriter {
    /// Whether public declarations of the composites name a Foundation type (so the schema's import must be public).
    var compositesUseFoundation: Bool {
        let foundationTypes: Set<String> = ["Date", "Decimal", "Data", "UUID", "URL"]
        return shape.layout.version.composites.contains { composite in
            composite.attributes.contains { foundationTypes.contains(AttributeCoding.swiftType(of: $0.type)) }
        }
    }

    func writeComposites(to out: inout SwiftWriter) {
        let version = shape.layout.version
        for composite in version.composites {
            guard let typeName = shape.compositeTypeNames[composite.name] else { continue }
            out.line()
            writeComposite(composite, typeName: typeName, to: &out)
        }
    }

    /// A member of a composite as the struct holds it.
    private struct Member {
        var attribute: Attribute
        var swiftName: String
        var type: String
        /// Whether JSON has no type for the value, so the schema's `CompositeCoding` writes it as text.
        var isText: Bool
    }

    private func members(of composite: Composite) -> [Member] {
        var names = SwiftNames.Allocator(
            reserved: SwiftNames.keywords.union(["CodingKeys", "hash", "hashValue", "encode", "init"]))
        return composite.attributes.filter(\.isStored).map { attribute in
            let type =
                attribute.type == .composite
                ? attribute.compositeName.flatMap { shape.compositeTypeNames[$0] } ?? "String"
                : AttributeCoding.swiftType(of: attribute.type)
            return Member(
                attribute: attribute, swiftName: names.claimMember(attribute.name), type: type,
                isText: ["Date", "Decimal", "Data", "URL"].contains(type))
        }
    }

    private func writeComposite(_ composite: Composite, typeName: String, to out: inout SwiftWriter) {
        let members = members(of: composite)
        out.doc(
            """
            The composite \(Self.literal(composite.name)): a Composite attribute's value, kept in its column as a JSON \
            object of its members (`{"city": "Lyon", …}`; a Date as ISO 8601 text, a Decimal as its digits, Data as \
            base64, a URL as its text).
            """)
        out.block("\(open)struct \(typeName): Hashable, Sendable, Codable") { out in
            for member in members {
                out.doc(
                    "`\(member.attribute.name)`: \(member.attribute.type.rawValue)\(member.attribute.isOptional ? ", optional" : "")."
                )
                out.line("\(open)var \(member.swiftName): \(member.type)\(member.attribute.isOptional ? "?" : "")")
            }
            out.line()
            out.doc("A value, member by member.")
            let parameters = members.map { member -> String in
                var parameter = "\(member.swiftName): \(member.type)"
                if member.attribute.isOptional {
                    parameter += "? = nil"
                } else if member.attribute.type != .composite,
                    let literal = AttributeCoding.defaultLiteral(of: member.attribute)
                {
                    parameter += " = \(literal)"
                }
                return parameter
            }
            out.block("\(open)init(\(parameters.joined(separator: ", ")))") { out in
                for member in members { out.line("self.\(member.swiftName) = \(member.swiftName)") }
            }
            out.line()
            // A composite without members (real models have them) is the empty object: no raw type, no key.
            out.block("enum CodingKeys: \(members.isEmpty ? "" : "String, ")CodingKey") { out in
                for member in members { out.line("case \(member.swiftName) = \(Self.literal(member.attribute.name))") }
            }
            out.line()
            out.doc("Reads the members from the composite's JSON object (a missing member is nil).")
            out.block("\(open)init(from decoder: any Decoder) throws") { out in
                out.line("\(members.isEmpty ? "_" : "let container") = try decoder.container(keyedBy: CodingKeys.self)")
                for member in members { out.line(decodeLine(member)) }
            }
            out.line()
            out.doc("Writes every member, a nil one as `null`, in the composite's order.")
            out.block("\(open)func encode(to encoder: any Encoder) throws") { out in
                out.line("\(members.isEmpty ? "_" : "var container") = encoder.container(keyedBy: CodingKeys.self)")
                for member in members {
                    out.line(
                        member.isText
                            ? "try \(schema).CompositeCoding.encode(\(member.swiftName), &container, .\(member.swiftName))"
                            : "try container.encode(\(member.swiftName), forKey: .\(member.swiftName))")
                }
            }
        }
    }

    private func decodeLine(_ member: Member) -> String {
        let key = ".\(member.swiftName)"
        let read =
            member.isText
            ? "\(schema).CompositeCoding.decode(\(member.type).self, container, \(key))"
            : "container.decodeIfPresent(\(member.type).self, forKey: \(key))"
        if member.attribute.isOptional { return "\(member.swiftName) = try \(read)" }
        return "\(member.swiftName) = try \(schema).CompositeCoding.required(\(read), container, \(key))"
    }

    /// The helpers of the composites' coding: the members JSON has no type for, a composite read from its column
    /// and written into it, each failure named by entity, object, attribute and member.
    func compositeSupportText() -> String {
        "\n" + Self.compositeSupportTemplate.replacingOccurrences(of: "SCHEMA", with: schema)
    }

    private static let compositeSupportTemplate = #"""
        extension SCHEMA {
            /// The coding of composites: the members JSON has no type for (a Date as ISO 8601 text with
            /// milliseconds, a Decimal as its digits, Data as base64, a URL as its text), and a composite read from
            /// its column and written into it, each failure named by entity, object, attribute and member.
            enum CompositeCoding {
                /// Reads a composite from its column (`NULL` is nil); a value that is not the JSON object of its
                /// members is refused, naming the member.
                static func read<Value: Decodable>(
                    _ row: Row, _ index: Int, _ entity: String, _ attribute: String, _ type: Value.Type
                ) throws -> Value? {
                    guard let text = try row.decode(String?.self, atIndex: index) else { return nil }
                    do {
                        return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
                    } catch {
                        let key = try? row.decode(Int64.self, atIndex: 0)
                        throw RecordError(
                            kind: .undecodable, entity: entity, property: attribute, primaryKey: key,
                            message: "\(RecordError.subject(entity, key)) attribute \"\(attribute)\": the store holds a damaged composite value: \(problem(error)); find every damaged value with remodel export")
                    }
                }

                /// A composite's JSON object, for its column (nil stays `NULL`); a member that cannot be stored (NaN,
                /// an infinite number) is refused, naming it.
                static func column<Value: Encodable>(
                    _ value: Value?, _ entity: String, _ key: Int64?, _ attribute: String
                ) throws -> String? {
                    guard let value else { return nil }
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.withoutEscapingSlashes]
                    do {
                        return String(decoding: try encoder.encode(value), as: UTF8.self)
                    } catch EncodingError.invalidValue(let member, let context) {
                        throw RecordError.invalid(
                            entity, key, "attribute", attribute,
                            "\(path(context.codingPath))\(member) cannot be stored in a composite: JSON has no such number; use another value or nil")
                    }
                }

                /// `member "geo.lat": ` for a coding path inside a composite, or nothing.
                static func path(_ codingPath: [any CodingKey]) -> String {
                    codingPath.isEmpty ? "" : "member \"\(codingPath.map(\.stringValue).joined(separator: "."))\": "
                }

                static func problem(_ error: any Error) -> String {
                    switch error as? DecodingError {
                    case .typeMismatch(let type, let context)?: "\(path(context.codingPath))expected \(type)"
                    case .valueNotFound(_, let context)?: "\(path(context.codingPath))a value is required"
                    case .keyNotFound(let key, let context)?: "\(path(context.codingPath + [key]))a value is required"
                    case .dataCorrupted(let context)?: "\(path(context.codingPath))\(context.debugDescription)"
                    default: "not a JSON object (\(error))"
                    }
                }

                /// A required member's value, or a refusal naming it.
                static func required<Value, Key>(_ value: Value?, _ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Value {
                    if let value { return value }
                    throw DecodingError.valueNotFound(Value.self, DecodingError.Context(codingPath: container.codingPath + [key], debugDescription: "required"))
                }

                private static func text<Value, Key>(
                    _ container: KeyedDecodingContainer<Key>, _ key: Key, _ expected: String, _ parse: (String) -> Value?
                ) throws -> Value? {
                    guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
                    guard let value = parse(text) else {
                        throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "expected \(expected), found \"\(text)\"")
                    }
                    return value
                }

                static func dateFormatter(fractional: Bool) -> ISO8601DateFormatter {
                    let formatter = ISO8601DateFormatter()
                    formatter.formatOptions = fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
                    return formatter
                }

                static func decode<Key>(_ type: Date.Type, _ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Date? {
                    try text(container, key, "an ISO 8601 date") {
                        dateFormatter(fractional: true).date(from: $0) ?? dateFormatter(fractional: false).date(from: $0)
                    }
                }

                static func decode<Key>(_ type: Decimal.Type, _ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Decimal? {
                    try text(container, key, "a decimal number") { Decimal(string: $0, locale: nil) }
                }

                static func decode<Key>(_ type: Data.Type, _ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Data? {
                    try text(container, key, "base64") { Data(base64Encoded: $0) }
                }

                static func decode<Key>(_ type: URL.Type, _ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> URL? {
                    try text(container, key, "a URL") { URL(string: $0) }
                }

                static func encode<Key>(_ value: Date?, _ container: inout KeyedEncodingContainer<Key>, _ key: Key) throws {
                    try container.encode(value.map { dateFormatter(fractional: true).string(from: $0) }, forKey: key)
                }

                static func encode<Key>(_ value: Decimal?, _ container: inout KeyedEncodingContainer<Key>, _ key: Key) throws {
                    try container.encode(value?.description, forKey: key)
                }

                static func encode<Key>(_ value: Data?, _ container: inout KeyedEncodingContainer<Key>, _ key: Key) throws {
                    try container.encode(value?.base64EncodedString(), forKey: key)
                }

                static func encode<Key>(_ value: URL?, _ container: inout KeyedEncodingContainer<Key>, _ key: Key) throws {
                    try container.encode(value?.absoluteString, forKey: key)
                }
            }
        }

        """#
}
