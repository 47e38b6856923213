/// A derived attribute's expression (`derivationExpression`), read as Core Data reads it: the subset of
/// `NSExpression`'s format that Core Data's SQLite store computes (Apple's `NSDerivedAttributeDescription`):
///
/// - a key path to an attribute of the object or, through to-one relationships, of a related object:
///   `name`, `author.name`;
/// - one of Core Data's string functions over such a key path: `lowercase:(name)`, `uppercase:(name)`,
///   `canonical:(name)` (case and diacritics folded);
/// - an aggregate over a to-many relationship (reached through to-one relationships or not): `books.@count`,
///   `books.pages.@sum` (or `@total`), `@avg`, `@min`, `@max` — Core Data takes the operator last —, also written
///   as functions: `count:(books)`, `sum:(books.pages)`,
///   `average:(…)`, `min:(…)`, `max:(…)`;
/// - `now()`, the time the object was last written.
///
/// For example:
/// ```swift
/// let derivation = try Derivation(parsing: "sum:(books.pages)")
/// print(derivation.form)  // aggregate(sum, path: ["books"], attribute: "pages")
/// print(derivation.text)  // books.pages.@sum
/// ```
public struct Derivation: Sendable, Hashable {
    /// A string function of Core Data's derivations.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        /// Every letter in lowercase.
        case lowercase
        /// Every letter in uppercase.
        case uppercase
        /// Lowercase with diacritics removed: Core Data's case- and diacritic-insensitive form.
        case canonical
    }

    /// An aggregate over the objects of a to-many relationship.
    public enum Aggregate: String, Sendable, Hashable, CaseIterable {
        /// How many objects (0 for none).
        case count
        /// The sum of an attribute's values (0 for none; nil values left out).
        case sum
        /// The mean of an attribute's values (nil for none).
        case avg
        /// The smallest value (nil for none).
        case min
        /// The largest value (nil for none).
        case max
    }

    /// What the expression computes.
    public enum Form: Sendable, Hashable {
        /// The value at the end of a key path: attributes reached through to-one relationships.
        case keyPath([String])
        /// A string function of the value at the end of a key path.
        case function(Function, [String])
        /// An aggregate over the last relationship of `path` (a to-many reached through to-ones), of `attribute`
        /// of its objects (nil for `@count`).
        case aggregate(Aggregate, path: [String], attribute: String?)
        /// The time of the object's last write.
        case now
    }

    /// What the expression computes.
    public var form: Form

    /// Creates a derivation of a form.
    public init(_ form: Form) { self.form = form }

    /// The expression as Remodel writes it (Core Data's key path form): `books.pages.@sum`, `canonical:(name)`.
    public var text: String {
        switch form {
        case .keyPath(let path): return path.joined(separator: ".")
        case .function(let function, let path): return "\(function.rawValue):(\(path.joined(separator: ".")))"
        case .aggregate(let aggregate, let path, let attribute):
            return (path + (attribute.map { [$0] } ?? []) + ["@\(aggregate.rawValue)"]).joined(separator: ".")
        case .now: return "now()"
        }
    }

    /// The names the expression reads from the object, in order: its key path, or the aggregate's path then the
    /// aggregated attribute.
    public var keys: [String] {
        switch form {
        case .keyPath(let path), .function(_, let path): return path
        case .aggregate(_, let path, let attribute): return path + (attribute.map { [$0] } ?? [])
        case .now: return []
        }
    }
}

extension Attribute {
    /// The derivation the store computes the attribute with: nil unless it is derived and its expression reads
    /// as Core Data's grammar (validate reports the others).
    package var derivation: Derivation? {
        guard isDerived, let text = derivationExpression else { return nil }
        return try? Derivation(parsing: text)
    }

    /// Whether the store computes every value of the attribute (a derived one other than `now()`, whose time a
    /// write path may carry): no write path gives it one.
    package var isComputedByStore: Bool {
        guard let derivation else { return false }
        return derivation.form != .now
    }
}
