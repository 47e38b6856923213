/// The `file:` URI SQLite opens `path` by: every byte a URI path may not hold as it is (Foundation's path
/// characters less `?`, `#` and `%`, which SQLite reads as the query, the fragment and an escape) written as `%XX`. The same
/// text as Foundation's `addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)` without those three, made
/// without Foundation, which every store's opening would otherwise map in.
func sqliteFileURI(_ path: String) -> String {
    var uri: [UInt8] = Array("file:".utf8)
    uri.reserveCapacity(5 + path.utf8.count)
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in path.utf8 {
        if isURIPathByte(byte) {
            uri.append(byte)
        } else {
            uri.append(UInt8(ascii: "%"))
            uri.append(hex[Int(byte >> 4)])
            uri.append(hex[Int(byte & 0x0F)])
        }
    }
    return String(decoding: uri, as: UTF8.self)
}

/// Whether `byte` stands for itself in a URI's path as Foundation's `urlPathAllowed` has it: unreserved (letters,
/// digits, `-._~`), the sub-delimiters but `;` (`!$&'()*+,=`), `:`, `@` and `/`.
private func isURIPathByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
        UInt8(ascii: "$"),
        UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
        UInt8(ascii: "+"),
        UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
        true
    default:
        false
    }
}
