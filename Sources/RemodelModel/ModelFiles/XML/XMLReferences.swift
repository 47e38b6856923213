/// The references a text without a document type can hold: the predefined entities and character references.
enum XMLReferences {
    /// A value or a text with its references decoded; nil when it holds any other (`&e;`) or one that is cut short.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "&") else {
                decoded.append(byte)
                index += 1
                continue
            }
            guard let end = raw[(index + 1)...].firstIndex(of: UInt8(ascii: ";")) else { return nil }
            let name = UnsafeBufferPointer(rebasing: raw[index + 1..<end])
            index = end + 1
            if name.first == UInt8(ascii: "#") {
                guard let scalar = scalar(ofCharacterReference: UnsafeBufferPointer(rebasing: name[1...])) else {
                    return nil
                }
                decoded.append(contentsOf: String(Character(scalar)).utf8)
                continue
            }
            switch String(decoding: name, as: UTF8.self) {
            case "lt": decoded.append(UInt8(ascii: "<"))
            case "gt": decoded.append(UInt8(ascii: ">"))
            case "amp": decoded.append(UInt8(ascii: "&"))
            case "quot": decoded.append(UInt8(ascii: "\""))
            case "apos": decoded.append(UInt8(ascii: "'"))
            default: return nil
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The scalar a character reference's digits name (`10`, `x0A`, at most seven digits), when XML allows that
    /// character.
    static func scalar(ofCharacterReference digits: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        let hex = digits.first == UInt8(ascii: "x")
        let body = hex ? UnsafeBufferPointer(rebasing: digits.dropFirst()) : digits
        guard !body.isEmpty, body.count <= 7 else { return nil }
        var value: UInt32 = 0
        for byte in body {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value * (hex ? 16 : 10) + digit
        }
        guard isCharacter(value) else { return nil }
        return Unicode.Scalar(value)
    }

    /// Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
    static func isCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
