/// The names Apple's Core Data gives its tables and columns in a SQLite store
/// (docs/CORE-DATA-STORES.md), spelled once, with the rules that make the names of a model's own
/// tables and columns.
///
/// The importer reads a store's names from its schema and compares them with these, so a typo does not
/// compile:
/// ```swift
/// let sql = "SELECT \(CoreDataName.primaryKey), \(CoreDataName.entityNumber) FROM \(CoreDataName.table(ofRoot: "Car"))"
/// // SELECT Z_PK, Z_ENT FROM ZCAR
/// ```
/// Each constant is a plain SQL identifier: it needs no quoting. Core Data upper-cases what it derives
/// from a model's names, and SQLite compares names without regard to ASCII case, so comparisons go
/// through ``normalized(_:)``.
package enum CoreDataName {
    // MARK: - Columns of every entity table

    /// An object's key, unique in its hierarchy's table (`INTEGER PRIMARY KEY`).
    package static let primaryKey = "Z_PK"
    /// The number of an object's concrete entity, as `Z_PRIMARYKEY` gives it.
    package static let entityNumber = "Z_ENT"
    /// The optimistic-locking counter (not imported).
    package static let optimisticLock = "Z_OPT"
    /// The columns Core Data puts first in every entity table.
    package static let entityTableColumns = [primaryKey, entityNumber, optimisticLock]

    // MARK: - Core Data's bookkeeping

    /// One row per entity: its number, name, parent's number and largest key given out.
    package static let primaryKeyTable = "Z_PRIMARYKEY"
    /// `Z_PRIMARYKEY`'s entity name.
    package static let entityName = "Z_NAME"
    /// `Z_PRIMARYKEY`'s parent entity number (0 for a root).
    package static let superEntity = "Z_SUPER"
    /// `Z_PRIMARYKEY`'s largest `Z_PK` given out.
    package static let maximumKey = "Z_MAX"
    /// The store's metadata: one row whose `Z_PLIST` is a binary property list.
    package static let metadataTable = "Z_METADATA"
    /// `Z_METADATA`'s version column (the row to read is the lowest).
    package static let metadataVersion = "Z_VERSION"
    /// `Z_METADATA`'s property list.
    package static let metadataPlist = "Z_PLIST"
    /// The compiled model the store was written with (raw deflate of a keyed archive).
    package static let modelCacheTable = "Z_MODELCACHE"
    /// `Z_MODELCACHE`'s one column.
    package static let modelCacheContent = "Z_CONTENT"
    /// Persistent history's tables.
    package static let historyTables = ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"]
    /// The prefix of CloudKit mirroring's tables.
    package static let cloudKitPrefix = "ANSCK"
    /// The prefix of an ordering key column (`Z_FOK_PARENT`, `Z_FOK_1FAVORITES`).
    package static let orderKeyPrefix = "Z_FOK_"

    /// Tables Core Data keeps for itself, which are never imported.
    package static func isBookkeeping(_ table: String) -> Bool {
        let name = normalized(table)
        return [primaryKeyTable, metadataTable, modelCacheTable].contains(name) || historyTables.contains(name)
            || name.hasPrefix(cloudKitPrefix)
    }

    // MARK: - Names made from a model

    /// A name as SQLite compares it: ASCII letters in upper case, every other byte as it is (`ZCAFé` and
    /// `ZCAFÉ` are two names to SQLite, though Core Data would make neither from a model).
    package static func normalized(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 97 && $0 <= 122 }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }

    /// A model's name as Core Data spells it in the store's names: upper-cased as `NSString` does, with Unicode's
    /// full case mapping (`café` → `CAFÉ`, `straße` → `STRASSE`). Compare what it gives with a store's names
    /// through ``normalized(_:)``.
    package static func storeSpelling(_ name: String) -> String { name.uppercased() }

    /// The table of a hierarchy: `Z` and the root entity's name in upper case (`ZCAR`).
    package static func table(ofRoot entity: String) -> String { "Z" + storeSpelling(entity) }

    /// The column of an attribute or to-one relationship: `Z` and its name in upper case (`ZOWNER`);
    /// where two entities of one hierarchy declare the name, the later ones are numbered (`ZFOLDER1`).
    package static func column(of property: String) -> String { "Z" + storeSpelling(property) }

    /// The ordering key of a to-one column whose inverse is ordered: `ZPARENT` → `Z_FOK_PARENT`.
    package static func orderKey(ofToOne column: String) -> String { orderKeyPrefix + column.dropFirst() }

    /// The ordering key of a join table's column: `Z_1FAVORITES` → `Z_FOK_1FAVORITES`.
    package static func orderKey(ofJoinColumn column: String) -> String { orderKeyPrefix + column.dropFirst(2) }

    /// Whether `column` is `Z<n>_<rest>` where `Z<rest>` is `toOne`: the entity number Core Data keeps
    /// beside a to-one whose destination has sub-entities (`Z6_FOLDER1` beside `ZFOLDER1`).
    package static func isEntityNumber(_ column: String, of toOne: String) -> Bool {
        let name = normalized(column)
        let rest = "_" + normalized(toOne).dropFirst()
        guard name.hasPrefix("Z"), name.hasSuffix(rest) else { return false }
        let digits = name.dropFirst().dropLast(rest.count)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The number Core Data added to `name` to make `found` unique: 0 when `found` is `name` itself
    /// (compared as SQLite compares names), 1 for `ZTEXT1` after `ZTEXT`, `nil` when `found` is not `name`
    /// followed by ASCII digits. A name Core Data made is matched this way, never predicted: which property
    /// gets the number changes between OS releases.
    package static func suffix(of found: String, after name: String) -> Int? {
        let upper = normalized(found).utf8
        let key = normalized(name).utf8
        guard upper.starts(with: key) else { return nil }
        let digits = upper.dropFirst(key.count)
        if digits.isEmpty { return 0 }
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }

    /// A join table's or join column's name read against a relationship's (the model's name, spelled as Core
    /// Data spells it, ``storeSpelling(_:)``): `Z_<n><RELATIONSHIP><suffix>`
    /// (`Z_23USERS1` for `users`: number 23, suffix 1), whatever the entity number and the suffix.
    package static func joinName(_ found: String, of relationship: String) -> (number: Int64, suffix: Int)? {
        let upper = normalized(found).utf8
        guard upper.starts(with: "Z_".utf8) else { return nil }
        let rest = upper.dropFirst(2)
        let digits = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty, let number = Int64(String(decoding: digits, as: UTF8.self)),
            let suffix = suffix(
                of: String(decoding: rest.dropFirst(digits.count), as: UTF8.self), after: storeSpelling(relationship))
        else { return nil }
        return (number, suffix)
    }

    /// Whether `name` is `Z_<n><RELATIONSHIP>` or that with a number Core Data added, a join table or join
    /// column named after a relationship whatever the entity number (`Z_1BOOKS`, `Z_23USERS1`).
    package static func isNumbered(_ name: String, after relationship: String) -> Bool {
        joinName(name, of: relationship) != nil
    }

    /// `name` without the ASCII digits it ends with (`ZTEXT1` → `ZTEXT`): the columns sharing it may be one
    /// name Core Data numbered to keep them apart.
    package static func withoutSuffix(_ name: String) -> String {
        let upper = normalized(name).utf8
        let digits = upper.reversed().prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        return String(decoding: upper.dropLast(digits), as: UTF8.self)
    }
}
