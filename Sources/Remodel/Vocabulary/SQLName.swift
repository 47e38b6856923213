/// A name compared as SQLite compares identifiers (DESIGN.md, "Names"): ASCII letters without regard to case,
/// every other scalar byte for byte — no Unicode normalization, no case folding beyond ASCII. So `Title` and
/// `TITLE` are one name, while `café` written with U+00E9 and `cafe` followed by U+0301 are two, as are `É` and
/// `é` (Core Data and SQLite alike keep them apart).
///
/// Swift's `String` equality is the wrong rule for names: it takes canonically equivalent spellings for one
/// string (`"caf\u{E9}" == "cafe\u{301}"`), and `lowercased()` folds letters SQLite does not. Every comparison of
/// names goes through this type, as a key of a set or dictionary, or through ``same(_:_:)``; a name's identity in a
/// model (an entity, a property, a version) is its scalars byte for byte (``identical(_:_:)``).
///
/// For example:
/// ```swift
/// SQLName.same("Person", "PERSON")       // true
/// SQLName.same("caf\u{E9}", "cafe\u{301}")  // false
/// ```
package struct SQLName: Hashable, Sendable, CustomStringConvertible {
    /// The name as written.
    package let name: String
    /// Its UTF-8 bytes with ASCII letters in lower case: what equality and hashing read.
    private let key: [UInt8]

    package init(_ name: String) {
        self.name = name
        key = name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
    }

    package static func == (lhs: SQLName, rhs: SQLName) -> Bool { lhs.key == rhs.key }

    package func hash(into hasher: inout Hasher) { hasher.combine(key) }

    package var description: String { name }

    /// Whether SQLite takes two names for the same identifier.
    package static func same(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        let (x, y) = (a.utf8, b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).allSatisfy { left, right in
            left == right || (left | 0x20 == right | 0x20 && (left | 0x20) >= 97 && (left | 0x20) <= 122)
        }
    }

    /// Whether two names are one name of a model: the same scalars, byte for byte (not Swift's `==`, which takes
    /// canonically equivalent spellings for one).
    package static func identical(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }
}
