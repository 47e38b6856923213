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
                guard let scalar = characterReference(UnsafeBufferPointer(rebasing: name[1...])) else { return nil }
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

    /// The scalar of a character reference's digits (`10`, `x0A`).
    private static func characterReference(_ digits: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard !digits.isEmpty else { return nil }
        let hex = digits[0] == UInt8(ascii: "x")
        let text = String(decoding: hex ? UnsafeBufferPointer(rebasing: digits[1...]) : digits, as: UTF8.self)
        guard !text.isEmpty, text.count <= 8, let value = UInt32(text, radix: hex ? 16 : 10) else { return nil }
        return Unicode.Scalar(value)
    }
}
