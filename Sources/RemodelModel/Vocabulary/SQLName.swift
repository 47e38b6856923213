/// A name compared as SQLite compares identifiers (DESIGN.md, "Names"): ASCII letters without regard to case,
/// every other scalar byte for byte — no Unicode normalization, no case folding beyond ASCII. So `Title` and
/// `TITLE` are one name to SQLite, while `café` written with U+00E9 and `cafe` followed by U+0301 are two, as are
/// `É` and `é`.
///
/// Swift's `String` equality is the wrong rule for names: it takes canonically equivalent spellings for one
/// string (`"caf\u{E9}" == "cafe\u{301}"`), and `lowercased()` folds letters SQLite does not. Names that become
/// SQL names (tables, columns, the app's objects) are compared through this type, as a key of a set or
/// dictionary, or with ``same(_:_:)``; a name's identity in a model (an entity, a property, a version), which
/// Core Data keeps apart by letter case too, is its scalars, byte for byte (``identical(_:_:)``).
///
/// The one definition of what a name is — in model files, mapping files, expressions and the version order
/// file — is here too (``isIdentifier(_:)``).
///
/// For example:
/// ```swift
/// SQLName.same("Person", "PERSON")          // true
/// SQLName.same("caf\u{E9}", "cafe\u{301}")  // false
/// SQLName.isIdentifier("name\u{301}")       // true: `namé`, its accent a combining mark
/// ```
package struct SQLName: Hashable, Sendable, CustomStringConvertible {
    /// The name as written.
    package let name: String
    /// The name with ASCII letters in lower case: what equality and hashing read, byte by byte.
    private let key: String

    package init(_ name: String) {
        self.name = name
        key = Self.folded(name)
    }

    package static func == (lhs: SQLName, rhs: SQLName) -> Bool { lhs.key.utf8.elementsEqual(rhs.key.utf8) }

    package func hash(into hasher: inout Hasher) {
        let hashed: Void? = key.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { for byte in key.utf8 { hasher.combine(byte) } }
    }

    package var description: String { name }

    /// A column of a table (`table.column`), both compared as SQLite compares names: a key of a set or dictionary.
    package struct Column: Hashable, Sendable {
        package let table: SQLName
        package let column: SQLName

        package init(_ table: String, _ column: String) {
            self.table = SQLName(table)
            self.column = SQLName(column)
        }
    }

    /// `name` with ASCII letters in lower case, every other byte as it is (a short name stays inline: no allocation).
    package static func folded(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return name }
        let count = name.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = 0
            for byte in name.utf8 {
                buffer[index] = byte >= 65 && byte <= 90 ? byte + 32 : byte
                index += 1
            }
            return count
        }
    }

    /// Whether SQLite takes two names for the same identifier.
    package static func same(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        let (x, y) = (a.utf8, b.utf8)
        return x.count == y.count && zip(x, y).allSatisfy(sameByte)
    }

    /// Whether two bytes of names are one to SQLite: equal, or one ASCII letter in either case.
    private static func sameByte(_ left: UInt8, _ right: UInt8) -> Bool {
        left == right || (left | 0x20 == right | 0x20 && (left | 0x20) >= 97 && (left | 0x20) <= 122)
    }

    /// Whether `name` starts with `prefix` as SQLite compares names (`sqlite_`, `_remodel_`): ASCII letters without
    /// regard to case, every other byte as it is. Not `String.hasPrefix`, which reads whole characters (a combining
    /// mark after the prefix's last scalar would make it miss).
    package static func hasPrefix(_ name: some StringProtocol, _ prefix: some StringProtocol) -> Bool {
        let (whole, start) = (name.utf8, prefix.utf8)
        return whole.count >= start.count && zip(whole, start).allSatisfy(sameByte)
    }

    /// Whether two names are one name of a model: the same scalars, byte for byte (not Swift's `==`, which takes
    /// canonically equivalent spellings for one).
    package static func identical(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    // MARK: - What a name is

    /// Whether a scalar may start a name: `_` or a letter (a scalar Unicode calls alphabetic).
    package static func canStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    /// Whether a scalar may go on a name: what may start one, an ASCII digit, or a combining mark, which makes one
    /// character with the scalar before it (`é` written as `e` and U+0301).
    package static func canContinue(_ scalar: Unicode.Scalar) -> Bool {
        if canStart(scalar) || ("0"..."9").contains(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Whether `name` is a name: a scalar that may start one, then scalars that may go on one. The same in model
    /// files (`validate`), mapping files, expressions (`$source.name`) and Xcode's key paths.
    package static func isIdentifier(_ name: some StringProtocol) -> Bool {
        var scalars = name.unicodeScalars.makeIterator()
        guard let first = scalars.next(), canStart(first) else { return false }
        while let scalar = scalars.next() {
            // Nearly every name is ASCII: its bytes are checked without asking Unicode's tables.
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                guard
                    byte == UInt8(ascii: "_") || (byte | 0x20 >= 97 && byte | 0x20 <= 122) || (byte >= 48 && byte <= 57)
                else { return false }
            } else if !canContinue(scalar) {
                return false
            }
        }
        return true
    }
}
