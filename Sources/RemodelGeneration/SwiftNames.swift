import RemodelModel

/// The one rule that turns a model's names into Swift names for generated records (docs/TYPED-ACCESS.md, "Names").
///
/// 1. Every character that is not an ASCII letter, digit or `_` becomes `_`; a name starting with a digit gets a
///    leading `_`.
/// 2. A **type** name (an entity) that is a Swift keyword or names a type of Swift, Foundation or GRDB that the
///    generated code or an app's code uses (`Task`, `Data`, `Date`, `Error`, `Result`, `Row`, `Column`, …) gets
///    `Entity` appended: `Task` → `TaskEntity`. An app keeps `Task { … }` and `Date()` meaning what they mean.
///    The types nested in the schema enum (`Links`, `Patterns`, …) are reserved as well.
/// 3. A **member** name (attribute, relationship) that is a Swift keyword, or a member the generated type has
///    (`id`, `insert`, `update`, `delete`, `validate`, `hashValue`, …), gets `_` appended: `self` → `self_`,
///    `id` → `id_`, `default` → `default_`. No backticks: `obj.self_` reads as written.
/// 4. Whatever is still taken gets `_2`, `_3`, … in model order: two names that became equal, and a name whose
///    derived members are taken. A relationship `r` also declares `rRequest`, `setR`, `addToR`, `removeFromR`
///    and `_keepR`, a Decimal attribute `d` its stored form `_d`: so a relationship `friend` beside an attribute
///    `friendRequest` becomes `friend_2`, and `Friend` beside `friend` becomes `Friend_2` (its `setFriend`
///    would be `friend`'s).
///
/// For example:
/// ```swift
/// var types = SwiftNames.Allocator(reserved: SwiftNames.reservedTypeNames)
/// types.claimType("Task")   // "TaskEntity"
/// ```
enum SwiftNames {
    /// Swift's keywords, in declarations, expressions, statements and at the start of a pattern.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "precedencegroup",
        "private", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break",
        "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self",
        "Self", "super", "throws", "true", "try", "Type", "Protocol", "some", "any", "each", "macro", "actor",
        "async", "copy", "discard", "consume", "_",
    ]

    /// Types an entity must not shadow: those the generated code names, and the everyday ones of Swift,
    /// Foundation and GRDB that an app's code names in the same module.
    static let reservedTypeNames: Set<String> =
        keywords.union([
            // Swift
            "Array", "Bool", "Character", "Codable", "Comparable", "Decodable", "Dictionary", "Double", "Encodable",
            "Equatable", "Error", "Float", "Hashable", "Identifiable", "Int", "Int8", "Int16", "Int32", "Int64",
            "Never", "Optional", "RawRepresentable", "Result", "Sendable", "Sequence", "Collection", "Set", "String",
            "Substring", "Task", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Void", "AnyObject", "AnyHashable",
            "CustomStringConvertible", "Swift", "Actor", "MainActor", "Range", "Unicode",
            // Foundation
            "Data", "Date", "Decimal", "Foundation", "NSObject", "NSRange", "NSRegularExpression", "Notification",
            "NotificationCenter", "URL", "UUID", "Locale", "TimeInterval", "Calendar", "JSONEncoder", "JSONDecoder",
            "Bundle", "FileManager", "ProcessInfo", "Thread", "Timer",
            // GRDB
            "GRDB", "Column", "Configuration", "Cursor", "Database", "DatabaseError", "DatabasePool", "DatabaseQueue",
            "DatabaseReader", "DatabaseValue", "DatabaseValueConvertible", "DatabaseWriter", "FetchableRecord",
            "ForeignKey", "InsertionSuccess", "MutablePersistableRecord", "PersistableRecord", "PersistenceContainer",
            "PersistenceSuccess", "QueryInterfaceRequest", "Record", "Row", "RowDecodingError", "SQL", "SQLRequest",
            "SQLSelectable", "Statement", "StatementArguments", "TableRecord", "ValueObservation", "Table",
            "Association", "BelongsToAssociation", "HasManyAssociation", "HasOneAssociation",
            // The types nested in the schema enum, whose code names the record types bare.
            "Links", "Patterns", "RecordError", "StoredDecimal",
        ])

    /// Members every generated record type has, from Swift, GRDB and the generator, that a property must not
    /// shadow.
    static let reservedMemberNames: Set<String> =
        keywords.union([
            "id", "hashValue", "hash", "description", "debugDescription", "validate", "insert", "insertAndFetch",
            "update", "updateAndFetch", "updateChanges", "upsert", "upsertAndFetch", "save", "saveAndFetch", "delete",
            "exists", "encode", "databaseDictionary", "databaseChanges", "databaseEquals", "inserted", "saved",
            "willInsert", "aroundInsert", "didInsert", "willUpdate", "aroundUpdate", "didUpdate", "willSave",
            "aroundSave", "didSave", "willDelete", "aroundDelete", "didDelete", "request", "entityName", "ID",
            "Columns", "databaseTableName", "databaseSelection", "all", "none", "filter", "order", "select",
            "including", "joining", "annotated", "having", "limit", "fetchAll", "fetchOne", "fetchCount", "fetchSet",
            "fetchCursor", "find", "deleteAll", "deleteOne", "updateAll", "matching", "with", "aliased", "Key",
            "rawValue", "self", "init", "Type", "Protocol", "databaseEncodingUserInfo", "databaseComponents",
            "selectID", "selectPrimaryKey", "orderByPrimaryKey", "numberOfSelectedColumns", "recordNotFound",
            "belongsTo", "hasMany", "hasOne", "association", "databaseDecodingUserInfo",
            "databaseColumnDecodingStrategy", "databaseDataDecodingStrategy", "databaseDataEncodingStrategy",
            "databaseColumnEncodingStrategy",
            "databaseDateEncodingStrategy", "persistenceConflictPolicy", "databaseUUIDEncodingStrategy",
            "databaseJSONEncoder", "databaseJSONDecoder", "recordTypes", "check",
            // The generator's own members.
            "_entity", "_delete", "_requireInserted", "_checkKeys", "_uncheckedRow",
        ])

    /// A name with only ASCII letters, digits and `_`, not starting with a digit.
    static func sanitized(_ name: String) -> String {
        var result = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                        ? scalar : "_"
                }))
        if result.isEmpty { result = "_" }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "_" + result }
        return result
    }

    /// `<Model>Schema`: the bundle's name (and, for the records of one configuration, the configuration's name
    /// after it: `LibraryCloud`) with every character that is not a letter, digit or underscore removed, then
    /// `Schema` (a leading digit gets a `_` before it, as Swift requires).
    static func schemaTypeName(_ modelName: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in modelName.unicodeScalars
        where scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" {
            kept.append(scalar)
        }
        var name = String(kept) + "Schema"
        if let first = name.unicodeScalars.first, ("0"..."9").contains(first) { name = "_" + name }
        return name
    }

    /// `Book` → `book`, `URL` → `url`, `UUIDValue` → `uuidValue`: a leading run of capitals lowered, keeping the
    /// last one when a lowercase letter follows it.
    static func lowerCamel(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var upper = 0
        while upper < scalars.count, ("A"..."Z").contains(scalars[upper]) { upper += 1 }
        guard upper > 0 else { return name }
        let lowered = upper == 1 || upper == scalars.count ? upper : upper - 1
        let head = String(String.UnicodeScalarView(scalars[..<lowered])).lowercased()
        return head + String(String.UnicodeScalarView(scalars[lowered...]))
    }

    /// `books` → `Books`.
    static func upperFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// Gives out unique Swift names under the rule above, in the order asked.
    struct Allocator {
        private var taken: Set<String>

        init(reserved: Set<String> = []) { taken = reserved }

        /// A type name for a model name (rule steps 1, 2 and 4).
        mutating func claimType(_ name: String) -> String {
            var base = SwiftNames.sanitized(name)
            if SwiftNames.reservedTypeNames.contains(base) { base += "Entity" }
            return claimExactly(base)
        }

        /// A member name for a model name (rule steps 1, 3 and 4), free together with the members the generated
        /// code derives from it (`companions` of the name given out), which are taken with it.
        mutating func claimMember(_ name: String, companions: (String) -> [String] = { _ in [] }) -> String {
            var base = SwiftNames.sanitized(name)
            if SwiftNames.reservedMemberNames.contains(base) { base += "_" }
            var candidate = base
            var number = 1
            while true {
                let names = [candidate] + companions(candidate)
                if Set(names).count == names.count, names.allSatisfy({ !taken.contains($0) }) {
                    taken.formUnion(names)
                    return candidate
                }
                number += 1
                candidate = "\(base)_\(number)"
            }
        }

        /// What a relationship named `name` also declares (rule step 4).
        static func relationshipCompanions(_ name: String) -> [String] {
            let upper = SwiftNames.upperFirst(name)
            return [name + "Request", "set" + upper, "addTo" + upper, "removeFrom" + upper, "_keep" + upper]
        }

        /// What a Decimal attribute named `name` also declares: its stored form (rule step 4).
        static func decimalCompanions(_ name: String) -> [String] { ["_" + name] }

        /// `name` when free, else `name_2`, `name_3`, ….
        mutating func claimExactly(_ name: String) -> String {
            if taken.insert(name).inserted { return name }
            var number = 2
            while !taken.insert("\(name)_\(number)").inserted { number += 1 }
            return "\(name)_\(number)"
        }

        /// Marks a name as taken without giving it out.
        mutating func reserve(_ name: String) { taken.insert(name) }
    }

    /// A Swift string literal for any text.
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
