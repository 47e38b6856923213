import Foundation
import Remodel

/// Reading the archive's values: references followed and checked, strings, flags, dictionaries
/// (`NSDictionary` and `NSKnownKeysDictionary1`), arrays and sets, and default values.
extension CompiledModelDecoder {
    func resolve(_ body: () throws(KeyedArchive.Failure) -> ArchivedValue) throws(Failure) -> ArchivedValue {
        do {
            return try body()
        } catch {
            throw Failure(message: error.message)
        }
    }

    /// The value under `key`, its reference followed; nil when absent or `$null`.
    func value(_ object: ArchivedObject, _ key: String) throws(Failure) -> ArchivedValue? {
        let found = try resolve { () throws(KeyedArchive.Failure) in try object.value(key) ?? .null }
        if case .null = found { return nil }
        return found
    }

    /// The text under `key`; nil when absent or `$null`.
    func string(_ object: ArchivedObject, _ key: String) throws(Failure) -> String? {
        guard let found = try value(object, key) else { return nil }
        guard let text = found.string else {
            throw Failure(message: "\(object.className) \(object.index)'s \(key) is not text")
        }
        try Self.checkWritable(text, what: "\(object.className) \(object.index)'s \(key)")
        return text
    }

    /// Refuses text with a character no XML 1.0 file can hold (a control character, U+FFFE, U+FFFF):
    /// Xcode's model files cannot have written it, and the model files Remodel writes could not hold it.
    static func checkWritable(_ text: String, what: String) throws(Failure) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: continue
            default:
                throw Failure(
                    message:
                        "\(what) holds the character U+\(String(scalar.value, radix: 16, uppercase: true)), which no model file can hold"
                )
            }
        }
    }

    /// A flag `NSCoder` wrote with `encodeBool:` (absent when false).
    func flag(_ object: ArchivedObject, _ key: String) -> Bool {
        (object.fields[key]?.integer ?? 0) != 0
    }

    /// The entries of an archived dictionary, keys as text, references followed.
    func dictionary(_ value: ArchivedValue, what: String) throws(Failure) -> [(String, ArchivedValue)] {
        guard case .object(let object) = value else { throw Failure(message: "\(what) is not a dictionary") }
        var result: [(String, ArchivedValue)] = []
        if object.className == "NSKnownKeysDictionary1" {
            // The values in `values`, their keys in `searchMapping.keys`, slot for slot.
            guard let values = try self.value(object, "values"),
                case .object(let mapping)? = try self.value(object, "searchMapping"),
                let keys = try self.value(mapping, "keys")
            else { throw Failure(message: "\(what) is an NSKnownKeysDictionary1 without values or keys") }
            let keyList = try elements(keys, what: what)
            let valueList = try elements(values, what: what)
            guard keyList.count == valueList.count else {
                throw Failure(message: "\(what) has \(keyList.count) keys for \(valueList.count) values")
            }
            let empty = try string(object, "emptyToken")
            for (key, value) in zip(keyList, valueList) {
                guard let name = key.string else { throw Failure(message: "\(what) has a key that is not text") }
                try Self.checkWritable(name, what: "a key of \(what)")
                if case .null = value { continue }
                if let empty, value.string == empty { continue }
                result.append((name, value))
            }
            return result
        }
        let entries: [(key: ArchivedValue, value: ArchivedValue)]
        do {
            entries = try object.entries()
        } catch {
            throw Failure(message: "\(what): \(error.message)")
        }
        for entry in entries {
            guard let name = entry.key.string else { throw Failure(message: "\(what) has a key that is not text") }
            try Self.checkWritable(name, what: "a key of \(what)")
            result.append((name, entry.value))
        }
        return result
    }

    /// The elements of an archived array or set, references followed.
    func elements(_ value: ArchivedValue, what: String) throws(Failure) -> [ArchivedValue] {
        guard case .object(let object) = value else { throw Failure(message: "\(what) is not an array or a set") }
        do {
            return try object.elements()
        } catch {
            throw Failure(message: "\(what): \(error.message)")
        }
    }

    /// `NSUserInfo`: text keys and text values (others are left out, as Xcode's model editor holds only text).
    func userInfo(_ object: ArchivedObject, of what: String) throws(Failure) -> [String: String] {
        guard let info = try value(object, "NSUserInfo") else { return [:] }
        var result: [String: String] = [:]
        for (key, value) in try dictionary(info, what: "\(what)'s NSUserInfo") {
            guard let text = value.string else { continue }
            try Self.checkWritable(text, what: "\(what)'s NSUserInfo")
            result[key] = text
        }
        return result
    }

    /// `NSDefaultValue`: a number, text, date (`NS.time`), UUID (`NS.uuidbytes`), URL (`NS.relative`) or
    /// decimal number (`NS.mantissa`, `NS.exponent`, `NS.negative`); `nil` for a value Xcode cannot write.
    func defaultValue(_ value: ArchivedValue, type: AttributeType, of what: String) throws(Failure)
        -> CompiledModel.Value?
    {
        switch value {
        case .null:
            return nil
        case .plain(let plain):
            switch plain {
            case .bool(let flag): return type == .boolean ? .boolean(flag) : .integer(flag ? 1 : 0)
            case .integer(let number):
                if type == .boolean { return .boolean(number != 0) }
                if type == .date { return .date(Double(number)) }
                return type.isInteger || type == .decimal ? .integer(number) : .real(Double(number))
            case .real(let number):
                if type == .date { return .date(number) }
                if type.isInteger, let whole = Int64(exactly: number) { return .integer(whole) }
                return .real(number)
            case .date(let seconds): return .date(seconds)
            case .string(let text):
                try Self.checkWritable(text, what: "\(what)'s default value")
                return .text(text)
            default: return nil
            }
        case .object(let object):
            switch object.className {
            case "NSString", "NSMutableString":
                guard let text = value.string else { return nil }
                try Self.checkWritable(text, what: "\(what)'s default value")
                return .text(text)
            case "NSDate":
                guard let seconds = object.fields["NS.time"].flatMap(Self.real) else {
                    throw Failure(message: "\(what)'s default date has no NS.time")
                }
                return .date(seconds)
            case "NSUUID":
                guard case .data(let bytes)? = object.fields["NS.uuidbytes"], bytes.count == 16 else {
                    throw Failure(message: "\(what)'s default UUID is not 16 bytes")
                }
                let uuid = UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                        bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    ))
                return .text(uuid.uuidString)
            case "NSURL":
                guard let relative = try string(object, "NS.relative") else { return nil }
                let base = try string(object, "NS.base")
                return .text(
                    base.map { URL(string: relative, relativeTo: URL(string: $0))?.absoluteString ?? relative }
                        ?? relative)
            case "NSDecimalNumber", "NSDecimalNumberPlaceholder":
                return Self.decimal(object).map(CompiledModel.Value.text)
            default:
                return nil
            }
        }
    }

    static func real(_ value: PropertyListValue) -> Double? {
        switch value {
        case .real(let number): return number
        case .integer(let number): return Double(number)
        default: return nil
        }
    }

    /// An archived `NSDecimalNumber` as text (`12.5`), when its mantissa fits in 64 bits.
    static func decimal(_ object: ArchivedObject) -> String? {
        guard case .data(let bytes)? = object.fields["NS.mantissa"],
            let exponent = object.fields["NS.exponent"]?.integer,
            (-128...127).contains(exponent)
        else { return nil }
        let littleEndian = (object.fields["NS.mantissa.bo"]?.integer ?? 1) == 1
        let ordered = littleEndian ? bytes : bytes.reversed()
        guard ordered.dropFirst(8).allSatisfy({ $0 == 0 }) else { return nil }
        var mantissa: UInt64 = 0
        for (index, byte) in ordered.prefix(8).enumerated() { mantissa |= UInt64(byte) << (8 * UInt64(index)) }
        let negative = (object.fields["NS.negative"]?.integer ?? 0) != 0
        let value = Decimal(sign: negative ? .minus : .plus, exponent: Int(exponent), significand: Decimal(mantissa))
        return value.description
    }
}
