internal import Foundation

/// Transformable values in JSON (docs/JSON.md, "Transformable values"): the bytes stay what Core Data wrote; a
/// value that is a keyed archive of property-list objects this build writes back byte for byte
/// (``PropertyListArchive/exact(_:)``) is shown as `{"$keyedArchive": …}`, anything else as base64. Import takes
/// either: a string is base64, an object is the archive to write.
extension AttributeCodec {
    /// The key of the JSON object that holds an archive.
    static let archiveKey = "$keyedArchive"
    /// The key that says the archive's top keys are in the older order (``PropertyListArchive/Layout/legacy``).
    static let layoutKey = "$layout"

    /// The tags of values JSON has no form of; an object with one key that is a tag is that value.
    private enum Tag: String, CaseIterable {
        case data = "$data"
        case date = "$date"
        case uuid = "$uuid"
        case url = "$url"
        case real = "$real"
        case set = "$set"
        case mutableSet = "$mutableSet"
        case mutableArray = "$mutableArray"
        case dictionary = "$dictionary"
        case mutableDictionary = "$mutableDictionary"
    }

    /// Writes a Transformable value: the archive's JSON when it is one, else base64.
    static func writeTransformable(_ bytes: Data, to output: inout JSONOutput) {
        // An archive whose root is not `root` (not a transformer's) stays bytes: the JSON form has no place for the key.
        // So does one holding a number JSON has no form of that imports back to the same bits (`hasJSONForm`).
        guard let archive = PropertyListArchive.exact(Array(bytes)), archive.topKey == "root",
            hasJSONForm(archive.root)
        else {
            output.writeString(bytes.base64EncodedString())
            return
        }
        output.write("{")
        output.writeString(archiveKey)
        output.write(": ")
        write(archive.root, to: &output)
        if archive.layout == .legacy {
            output.write(", ")
            output.writeString(layoutKey)
            output.write(": ")
            output.writeString("legacy")
        }
        output.write("}")
    }

    /// Whether every number of the value has a JSON form that imports back to its very bits: a date that is not
    /// NaN or infinite (JSON has no such number, and `$date` takes no `$real` tag), and a NaN that is the one
    /// `{"$real": "NaN"}` imports as (a NaN may carry any payload in its bits).
    private static func hasJSONForm(_ value: PropertyListArchive.Value) -> Bool {
        switch value {
        case .date(let seconds): seconds.isFinite
        case .real(let number): !number.isNaN || number.bitPattern == Double.nan.bitPattern
        case .array(let elements, _), .set(let elements, _): elements.allSatisfy(hasJSONForm)
        case .dictionary(let entries, _): entries.allSatisfy { hasJSONForm($0.key) && hasJSONForm($0.value) }
        case .string, .integer, .bool, .data, .uuid, .url, .null: true
        }
    }

    private static func write(_ value: PropertyListArchive.Value, to output: inout JSONOutput) {
        func tagged(_ tag: Tag, _ body: (inout JSONOutput) -> Void) {
            output.write("{")
            output.writeString(tag.rawValue)
            output.write(": ")
            body(&output)
            output.write("}")
        }
        func list(_ values: [PropertyListArchive.Value], to output: inout JSONOutput) {
            output.write("[")
            for (offset, element) in values.enumerated() {
                if offset > 0 { output.write(", ") }
                write(element, to: &output)
            }
            output.write("]")
        }
        func pairs(_ entries: [PropertyListArchive.Entry], to output: inout JSONOutput) {
            output.write("[")
            for (offset, entry) in entries.enumerated() {
                if offset > 0 { output.write(", ") }
                output.write("[")
                write(entry.key, to: &output)
                output.write(", ")
                write(entry.value, to: &output)
                output.write("]")
            }
            output.write("]")
        }
        func object(_ entries: [PropertyListArchive.Entry], to output: inout JSONOutput) {
            output.write("{")
            for (offset, entry) in entries.enumerated() {
                guard case .string(let key) = entry.key else { continue }
                if offset > 0 { output.write(", ") }
                output.writeString(key)
                output.write(": ")
                write(entry.value, to: &output)
            }
            output.write("}")
        }
        switch value {
        case .string(let text): output.writeString(text)
        case .integer(let number): output.write(number)
        case .real(let number):
            if number.isFinite {
                output.write(raw: number.description)
            } else {
                tagged(.real) { $0.writeString(number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity") }
            }
        case .bool(let flag): flag ? output.write("true") : output.write("false")
        case .data(let bytes): tagged(.data) { $0.writeString(Data(bytes).base64EncodedString()) }
        case .date(let seconds):
            tagged(.date) { output in
                if let text = ISODate.format(seconds + ISODate.referenceDateOffset),
                    // Bit for bit: -0.0 is written as its seconds, not as the date of 0.0.
                    let back = ISODate.parse(text),
                    (back - ISODate.referenceDateOffset).bitPattern == seconds.bitPattern
                {
                    output.writeString(text)
                } else {
                    output.write(raw: seconds.description)
                }
            }
        case .uuid(let bytes):
            tagged(.uuid) { output in
                guard bytes.count == 16 else { return output.write("null") }
                let uuid = UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                        bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    ))
                output.writeString(uuid.uuidString)
            }
        case .url(let text): tagged(.url) { $0.writeString(text) }
        case .null: output.write("null")
        case .array(let elements, false): list(elements, to: &output)
        case .array(let elements, true): tagged(.mutableArray) { list(elements, to: &$0) }
        case .set(let elements, let mutable): tagged(mutable ? .mutableSet : .set) { list(elements, to: &$0) }
        case .dictionary(let entries, let mutable):
            let keys = entries.compactMap { entry -> String? in
                if case .string(let key) = entry.key { return key }
                return nil
            }
            // String keys, each once, and not one key that reads as a tag: a plain object.
            let plain =
                keys.count == entries.count && Set(keys).count == keys.count
                && !(keys.count == 1 && Tag(rawValue: keys[0]) != nil)
            switch (plain, mutable) {
            case (true, false): object(entries, to: &output)
            case (true, true): tagged(.mutableDictionary) { object(entries, to: &$0) }
            case (false, _): tagged(mutable ? .mutableDictionary : .dictionary) { pairs(entries, to: &$0) }
            }
        }
    }

    /// The archive bytes of a Transformable value given as `{"$keyedArchive": …}`.
    func transformableArchive(_ json: JSONValue) throws(ValueProblem) -> Data {
        guard case .object(let members) = json, let root = members.first(where: { $0.key == Self.archiveKey })?.value
        else { throw mismatch("base64 text or an object {\"\(Self.archiveKey)\": …}", json) }
        var layout = PropertyListArchive.Layout.current
        for (key, value) in members where key != Self.archiveKey {
            guard key == Self.layoutKey, value == .string("legacy") || value == .string("current") else {
                throw ValueProblem(
                    message:
                        "an archive takes \"\(Self.archiveKey)\" and perhaps \"\(Self.layoutKey)\": \"legacy\", found \"\(key)\""
                )
            }
            if value == .string("legacy") { layout = .legacy }
        }
        let archive = PropertyListArchive(root: try Self.archiveValue(root, depth: 0), layout: layout)
        return Data(archive.bytes)
    }

    private static func archiveValue(_ json: JSONValue, depth: Int) throws(ValueProblem) -> PropertyListArchive.Value {
        guard depth <= BinaryPropertyList.maximumDepth else {
            throw ValueProblem(message: "the archive's value nests more than \(BinaryPropertyList.maximumDepth) deep")
        }
        func list(_ json: JSONValue) throws(ValueProblem) -> [PropertyListArchive.Value] {
            guard case .array(let elements) = json else {
                throw ValueProblem(message: "expected an array in the archive, found \(json.shortDescription)")
            }
            var result: [PropertyListArchive.Value] = []
            for element in elements { result.append(try archiveValue(element, depth: depth + 1)) }
            return result
        }
        func entries(_ json: JSONValue) throws(ValueProblem) -> [PropertyListArchive.Entry] {
            var result: [PropertyListArchive.Entry] = []
            switch json {
            case .object(let members):
                for (key, value) in members {
                    result.append(PropertyListArchive.Entry(.string(key), try archiveValue(value, depth: depth + 1)))
                }
            case .array(let pairs):
                for pair in pairs {
                    guard case .array(let two) = pair, two.count == 2 else {
                        throw ValueProblem(
                            message:
                                "expected a dictionary entry [key, value] in the archive, found \(pair.shortDescription)"
                        )
                    }
                    result.append(
                        PropertyListArchive.Entry(
                            try archiveValue(two[0], depth: depth + 1), try archiveValue(two[1], depth: depth + 1)))
                }
            default:
                throw ValueProblem(message: "expected a dictionary in the archive, found \(json.shortDescription)")
            }
            for (index, entry) in result.enumerated() where result[..<index].contains(where: { $0.key == entry.key }) {
                throw ValueProblem(message: "a dictionary of the archive has a key twice")
            }
            return result
        }
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .string(text)
        case .number(let text):
            if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                guard let number = Double(text), number.isFinite else {
                    throw ValueProblem(message: "the number \(text) of the archive is not a double")
                }
                return .real(number)
            }
            guard let number = Int64(text) else {
                throw ValueProblem(message: "the number \(text) of the archive does not fit a 64-bit integer")
            }
            return .integer(number)
        case .array: return .array(try list(json), mutable: false)
        case .object(let members):
            guard members.count == 1, let tag = Tag(rawValue: members[0].key) else {
                return .dictionary(try entries(json), mutable: false)
            }
            let content = members[0].value
            func text() throws(ValueProblem) -> String {
                guard case .string(let text) = content else {
                    throw ValueProblem(message: "\(tag.rawValue) takes a string, found \(content.shortDescription)")
                }
                return text
            }
            switch tag {
            case .data:
                guard let bytes = Data(base64Encoded: try text()) else {
                    throw ValueProblem(message: "\(tag.rawValue) takes base64 text")
                }
                return .data(Array(bytes))
            case .date:
                if case .number(let number) = content, let seconds = Double(number) { return .date(seconds) }
                guard let seconds = ISODate.parse(try text()) else {
                    throw ValueProblem(
                        message:
                            "\(tag.rawValue) takes an ISO 8601 date or seconds since 2001, found \(content.shortDescription)"
                    )
                }
                return .date(seconds - ISODate.referenceDateOffset)
            case .uuid:
                guard let uuid = UUID(uuidString: try text()) else {
                    throw ValueProblem(message: "\(tag.rawValue) takes a UUID, found \(content.shortDescription)")
                }
                return .uuid(withUnsafeBytes(of: uuid.uuid) { Array($0) })
            case .url: return .url(try text())
            case .real:
                switch try text() {
                case "NaN": return .real(.nan)
                case "Infinity": return .real(.infinity)
                case "-Infinity": return .real(-.infinity)
                default: throw ValueProblem(message: "\(tag.rawValue) takes \"NaN\", \"Infinity\" or \"-Infinity\"")
                }
            case .set: return .set(try list(content), mutable: false)
            case .mutableSet: return .set(try list(content), mutable: true)
            case .mutableArray: return .array(try list(content), mutable: true)
            case .dictionary: return .dictionary(try entries(content), mutable: false)
            case .mutableDictionary: return .dictionary(try entries(content), mutable: true)
            }
        }
    }
}
