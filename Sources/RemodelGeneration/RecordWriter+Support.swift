internal import Foundation
import RemodelModel

/// The part of the schema's file that is the same for every model: the error type and the helpers the records
/// read and check values with. Generated with the records (rather than a library they import) so the generated
/// files need GRDB and Foundation alone; nested in the schema enum, so two models' records can share a target.
extension RecordWriter {
    func supportText() -> String {
        Self.supportTemplate
            .replacingOccurrences(of: "SCHEMA", with: schema)
            .replacingOccurrences(of: "OPEN", with: open)
    }

    private static let supportTemplate = #"""
        extension SCHEMA {
            /// Why a record was not read, written or deleted, or a store not opened: one sentence naming the entity,
            /// the object (`_pk`) and the property at fault, and what to do.
            OPENstruct RecordError: Error, CustomStringConvertible, Sendable {
                /// What went wrong.
                OPENenum Kind: Sendable, Hashable {
                    /// A value breaks the model's rules (required, bounds, regular expression, required to-one).
                    case invalidValue
                    /// Another object has the same values for a uniqueness constraint, or the same `_pk`.
                    case uniqueness
                    /// A Deny delete rule refused the delete.
                    case deleteDenied
                    /// A relationship was changed on an object not inserted yet.
                    case notInserted
                    /// A key names no object of the relationship's destination.
                    case noSuchObject
                    /// A key names an object of another entity of the table.
                    case otherEntity
                    /// The store holds a value the records cannot read.
                    case undecodable
                    /// The database is not a Remodel store.
                    case notAStore
                    /// The store is laid out in a newer format.
                    case newerFormat
                    /// The store is another model's.
                    case otherModel
                    /// The store holds another configuration's entities (or every entity, for the records of one
                    /// configuration, or one configuration's, for the records of every entity).
                    case otherConfiguration
                    /// The store is at another version than the records were generated for.
                    case otherVersion
                    /// The store's version was edited after the store was made.
                    case editedVersion
                    /// The store's tables or columns are not the version's.
                    case schemaDrift
                }

                /// What went wrong.
                OPENvar kind: Kind
                /// The entity at fault, if any.
                OPENvar entity: String?
                /// The attribute or relationship at fault, if any.
                OPENvar property: String?
                /// The object's `_pk`, if it has one.
                OPENvar primaryKey: Int64?
                /// The sentence.
                OPENvar message: String

                /// An error.
                OPENinit(kind: Kind, entity: String? = nil, property: String? = nil, primaryKey: Int64? = nil, message: String) {
                    self.kind = kind
                    self.entity = entity
                    self.property = property
                    self.primaryKey = primaryKey
                    self.message = message
                }

                OPENvar description: String { message }

                /// `Person _pk 3`, or `Person (not inserted)`.
                static func subject(_ entity: String, _ key: Int64?) -> String {
                    key.map { "\(entity) _pk \($0)" } ?? "\(entity) (not inserted)"
                }

                static func invalid(_ entity: String, _ key: Int64?, _ kind: String, _ property: String, _ message: String) -> RecordError {
                    RecordError(
                        kind: .invalidValue, entity: entity, property: property, primaryKey: key,
                        message: "\(subject(entity, key)) \(kind) \"\(property)\": \(message)")
                }

                static func notInserted(_ entity: String, _ relationship: String) -> RecordError {
                    RecordError(
                        kind: .notInserted, entity: entity, property: relationship,
                        message: "\(entity) (not inserted) relationship \"\(relationship)\": insert the object before linking it")
                }

                static func deleteDenied(_ entity: String, _ key: Int64, _ relationship: String) -> RecordError {
                    RecordError(
                        kind: .deleteDenied, entity: entity, property: relationship, primaryKey: key,
                        message: "\(subject(entity, key)) cannot be deleted: its relationship \"\(relationship)\" has the Deny delete rule and still holds objects; unlink or delete them first")
                }

                static func unknownEntity(_ entity: String, table: String, key: Int64?) -> RecordError {
                    RecordError(
                        kind: .undecodable, entity: entity, primaryKey: key,
                        message: "the object \(key.map { "_pk \($0) " } ?? "")of the table \"\(table)\" is a \"\(entity)\", an entity version \"\(versionName)\" does not have there: check the store with \(String(describing: SCHEMA.self)).check(db)")
                }

                /// A failed insert or update, told in the model's terms when a constraint refused it.
                static func saving(
                    _ error: DatabaseError, _ entity: String, _ key: Int64?, properties: [String: String]
                ) -> any Error {
                    if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                        let failed = (error.message ?? "").components(separatedBy: "failed: ").last ?? ""
                        let columns = failed.components(separatedBy: ", ").map { $0.components(separatedBy: ".").last ?? $0 }
                        let names = columns.map { properties[$0] ?? $0 }
                        return RecordError(
                            kind: .uniqueness, entity: entity, property: names.joined(separator: ", "), primaryKey: key,
                            message: "\(subject(entity, key)): another \(entity) already has the same \(names.map { "\"\($0)\"" }.joined(separator: " and ")) (a uniqueness constraint of the model); change the value, or update that object instead")
                    }
                    if error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                        return RecordError(
                            kind: .uniqueness, entity: entity, primaryKey: key,
                            message: "\(subject(entity, key)): another object already has this _pk; leave the key nil and insert gives it the next one")
                    }
                    return error
                }
            }

            // MARK: - Reading values as the store layout encodes them

            @inline(__always)
            static func required<Value>(_ value: Value?, _ row: Row, _ entity: String, _ attribute: String) throws -> Value {
                if let value { return value }
                let key = try? row.decode(Int64.self, atIndex: 0)
                throw RecordError(
                    kind: .undecodable, entity: entity, property: attribute, primaryKey: key,
                    message: "\(RecordError.subject(entity, key)) attribute \"\(attribute)\": the store holds NULL, but the attribute is required; set a value with remodel import or a migration")
            }

            static func undecodable(_ row: Row, _ entity: String, _ attribute: String, _ found: String, _ expected: String) -> RecordError {
                let key = try? row.decode(Int64.self, atIndex: 0)
                return RecordError(
                    kind: .undecodable, entity: entity, property: attribute, primaryKey: key,
                    message: "\(RecordError.subject(entity, key)) attribute \"\(attribute)\": expected \(expected), found \(found)")
            }

            /// A Date: REAL seconds since 1970-01-01 UTC.
            @inline(__always)
            static func date(_ row: Row, _ index: Int, _ entity: String, _ attribute: String) throws -> Date? {
                try row.decode(Double?.self, atIndex: index).map(Date.init(timeIntervalSince1970:))
            }

            /// A Decimal attribute's value with the exact value the store holds, written back unchanged until the
            /// value is set (`12.30` is not rewritten `12.3`); equal and hashed by value. It reads itself from the
            /// statement's column (GRDB's fast path, as `String` and `Int64` do) instead of through a `DatabaseValue`
            /// decoded generically.
            struct StoredDecimal: Hashable, Sendable, Codable, DatabaseValueConvertible, StatementColumnConvertible {
                let value: Decimal
                let stored: DatabaseValue

                /// A value set in Swift: stored as its digits, `Decimal.description`.
                init(_ value: Decimal) {
                    self.value = value
                    self.stored = value.description.databaseValue
                }

                init(value: Decimal, stored: DatabaseValue) {
                    self.value = value
                    self.stored = stored
                }

                init?(sqliteStatement: SQLiteStatement, index: CInt) {
                    guard let decoded = Self.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else {
                        return nil
                    }
                    self = decoded
                }

                var databaseValue: DatabaseValue { stored }

                /// Digits as TEXT, or a number that a migration wrote as one; no locale: the `.` the store writes,
                /// whatever the user's locale (and no locale made per row).
                static func fromDatabaseValue(_ value: DatabaseValue) -> StoredDecimal? {
                    switch value.storage {
                    case .int64(let integer): StoredDecimal(value: Decimal(integer), stored: value)
                    case .double(let double): StoredDecimal(value: Decimal(double), stored: value)
                    case .string(let text): Decimal(string: text, locale: nil).map { StoredDecimal(value: $0, stored: value) }
                    case .null, .blob: nil
                    }
                }

                static func == (lhs: StoredDecimal, rhs: StoredDecimal) -> Bool { lhs.value == rhs.value }

                func hash(into hasher: inout Hasher) { hasher.combine(value) }

                /// The value, from a decoder that is not GRDB's (GRDB's reads the column as the store holds it).
                init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(Decimal.self)) }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.singleValueContainer()
                    try container.encode(value)
                }
            }

            /// A key of the records' coding: a row's name (`_pk`, `_entity`, an attribute's column, a to-one's
            /// `<relationship>_pk`).
            struct ColumnKey: CodingKey, ExpressibleByStringLiteral, Sendable {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
                init(stringLiteral value: String) { stringValue = value }
            }

            /// The concrete entity a decoder's `_entity` names.
            static func entityName(_ decoder: any Decoder) throws -> String {
                try decoder.container(keyedBy: ColumnKey.self).decode(String.self, forKey: "_entity")
            }

            /// A decoder's `_entity`, when it has one, is `entity`: no object of another entity is read as this one.
            static func requireEntity(_ decoder: any Decoder, _ entity: String) throws {
                let container = try decoder.container(keyedBy: ColumnKey.self)
                if let found = try container.decodeIfPresent(String.self, forKey: "_entity"), found != entity {
                    let key = try container.decodeIfPresent(Int64.self, forKey: "_pk")
                    throw RecordError(
                        kind: .otherEntity, entity: entity, primaryKey: key,
                        message: "the object \(key.map { "_pk \($0) " } ?? "")is a \(found), not a \(entity): read it as a \(found), or through its table's record type")
                }
            }

            /// A row of a table of several entities is one of `entity`: no request reads another entity's object as one.
            @inline(__always)
            static func requireEntity(_ row: Row, _ entity: String, table: String) throws {
                let found = try row.decode(String.self, atIndex: 1)
                if found != entity {
                    let key = try row.decode(Int64.self, atIndex: 0)
                    throw RecordError(
                        kind: .otherEntity, entity: entity, primaryKey: key,
                        message: "the object _pk \(key) of the table \"\(table)\" is a \(found), not a \(entity): read it as a \(found), or through the table's record type")
                }
            }

            /// A Decimal: its digits as TEXT (a number that a migration wrote as one is read too). A value that is
            /// not a decimal number is read again to name it.
            @inline(__always)
            static func decimal(_ row: Row, _ index: Int, _ entity: String, _ attribute: String) throws -> StoredDecimal? {
                do {
                    return try row.decode(StoredDecimal?.self, atIndex: index)
                } catch {
                    if case .string(let text) = try row.decode(DatabaseValue.self, atIndex: index).storage {
                        throw undecodable(row, entity, attribute, "\"\(text)\"", "a decimal number")
                    }
                    throw undecodable(row, entity, attribute, "binary data", "a decimal number")
                }
            }

            /// A UUID: uppercase canonical TEXT.
            static func uuid(_ row: Row, _ index: Int, _ entity: String, _ attribute: String) throws -> UUID? {
                guard let text = try row.decode(String?.self, atIndex: index) else { return nil }
                guard let uuid = UUID(uuidString: text) else { throw undecodable(row, entity, attribute, "\"\(text)\"", "a UUID") }
                return uuid
            }

            /// A URL: TEXT.
            static func url(_ row: Row, _ index: Int, _ entity: String, _ attribute: String) throws -> URL? {
                guard let text = try row.decode(String?.self, atIndex: index) else { return nil }
                guard let url = URL(string: text) else { throw undecodable(row, entity, attribute, "\"\(text)\"", "a URL") }
                return url
            }

            // MARK: - Checking values against the model

            static func checkNotNaN(_ isNaN: Bool, _ entity: String, _ key: Int64?, _ attribute: String) throws {
                if isNaN {
                    throw RecordError.invalid(entity, key, "attribute", attribute, "NaN cannot be stored: SQLite keeps it as NULL; use nil")
                }
            }

            /// A date is a finite time: NaN would be stored as NULL, and no export can show an infinite one.
            static func checkFinite(_ seconds: Double, _ entity: String, _ key: Int64?, _ attribute: String) throws {
                if !seconds.isFinite {
                    throw RecordError.invalid(entity, key, "attribute", attribute, "a date must be a finite time, found \(seconds) seconds since 1970")
                }
            }

            static func checkBounds(
                _ measure: Double, minimum: Double?, maximum: Double?, unit: String, isDate: Bool, _ entity: String, _ key: Int64?,
                _ attribute: String
            ) throws {
                func text(_ value: Double) -> String {
                    if isDate {
                        let formatter = ISO8601DateFormatter()
                        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                        return formatter.string(from: Date(timeIntervalSince1970: value))
                    }
                    return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
                }
                if let minimum, measure < minimum {
                    throw RecordError.invalid(entity, key, "attribute", attribute, "must be at least \(text(minimum))\(unit), found \(text(measure))")
                }
                if let maximum, measure > maximum {
                    throw RecordError.invalid(entity, key, "attribute", attribute, "must be at most \(text(maximum))\(unit), found \(text(measure))")
                }
            }

            /// Compiled regular expressions, by pattern: compiled once, used from any thread.
            final class Patterns: @unchecked Sendable {
                private let lock = NSLock()
                private var compiled: [String: NSRegularExpression] = [:]

                func expression(_ pattern: String) -> NSRegularExpression? {
                    lock.lock()
                    defer { lock.unlock() }
                    if let expression = compiled[pattern] { return expression }
                    let expression = try? NSRegularExpression(pattern: pattern)
                    compiled[pattern] = expression
                    return expression
                }
            }

            static let patterns = Patterns()

            /// The whole text must match, as `remodel import` checks it.
            static func checkPattern(_ text: String, _ pattern: String, _ entity: String, _ key: Int64?, _ attribute: String) throws {
                let range = NSRange(text.startIndex..., in: text)
                let match = patterns.expression(pattern)?.firstMatch(in: text, options: [.anchored], range: range)
                if match?.range != range {
                    throw RecordError.invalid(entity, key, "attribute", attribute, "does not match the regular expression \(pattern), found \"\(text)\"")
                }
            }

            /// A to-one key, or a link's other object, names an object of the relationship's destination entity (or of
            /// one of its sub-entities): `sql` finds it by `_pk`.
            static func requireObject(
                _ db: Database, _ sql: String, _ key: Int64, _ entity: String, _ object: Int64?, _ relationship: String,
                _ destination: String
            ) throws {
                if try Int.fetchOne(db.cachedStatement(sql: sql), arguments: [key]) == nil {
                    throw RecordError(
                        kind: .noSuchObject, entity: entity, property: relationship, primaryKey: object,
                        message: "\(RecordError.subject(entity, object)) relationship \"\(relationship)\": there is no \(destination) with _pk \(key)")
                }
            }

            /// The row an object of `entity` is saved over, when there is one, is of `entity` (`sql` reads its `_entity`).
            static func requireSameEntity(_ db: Database, _ sql: String, _ key: Int64, _ entity: String) throws {
                if let found = try String.fetchOne(db.cachedStatement(sql: sql), arguments: [key]), found != entity {
                    throw RecordError(
                        kind: .otherEntity, entity: entity, primaryKey: key,
                        message: "\(entity) _pk \(key): the object with this _pk is a \(found); a \(entity) cannot take its row")
                }
            }

            /// Refuses to remove an object (`sql` finds it among this one's, `_pk` and `_entity`) whose required
            /// inverse to-one the removal would leave empty.
            static func refuseUnlink(
                _ db: Database, _ sql: String, _ key: Int64, _ object: Int64, _ inverse: String, _ entity: String,
                _ relationship: String
            ) throws {
                if let row = try Row.fetchOne(db, sql: sql, arguments: [key, object]) {
                    let other: String = try row.decode(atIndex: 1)
                    throw RecordError(
                        kind: .invalidValue, entity: other, property: inverse, primaryKey: object,
                        message: "\(other) _pk \(object) relationship \"\(inverse)\": a value is required, but removing it from \(entity) _pk \(key)'s \"\(relationship)\" would leave it empty; add it to another \(entity), or delete it")
                }
            }

            /// Runs a link method's writes in a savepoint: when they would break a uniqueness constraint, it is told in
            /// the model's terms and nothing is written.
            static func linking(_ db: Database, _ entity: String, _ key: Int64, _ relationship: String, _ writes: () throws -> Void) throws {
                do {
                    try db.inSavepoint {
                        try writes()
                        return .commit
                    }
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    let failed = (error.message ?? "").components(separatedBy: "failed: ").last ?? ""
                    let columns = failed.components(separatedBy: ", ")
                    let table = columns.first?.components(separatedBy: ".").first ?? ""
                    let names = columns.map { "\"\($0.components(separatedBy: ".").last ?? $0)\"" }.joined(separator: " and ")
                    throw RecordError(
                        kind: .uniqueness, entity: entity, property: relationship, primaryKey: key,
                        message: "\(entity) _pk \(key) relationship \"\(relationship)\": the link would give two objects of \(table) the same \(names) (a uniqueness constraint of the model); change one of them first")
                }
            }

            /// Deletes one row of a cascade.
            static func deleteRow(_ db: Database, _ sql: String, _ key: Int64?) throws -> Bool {
                guard let key else { return false }
                try db.execute(sql: sql, arguments: [key])
                return db.changesCount > 0
            }

            /// The required to-ones a delete or a link empties on its way, checked when it is done: the work runs in a
            /// savepoint, so a refusal leaves nothing written.
            struct PendingChecks {
                private var watched: [(table: String, column: String, key: Int64, entity: String, relationship: String, cause: String)] = []

                init() {}

                /// Watches the rows `sql` lists (`_pk`, `_entity`), whose `column` holds a required to-one.
                mutating func watch(
                    _ db: Database, _ sql: String, _ arguments: StatementArguments, table: String, column: String,
                    relationship: String, cause: String
                ) throws {
                    for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                        watched.append((table, column, try row.decode(atIndex: 0), try row.decode(atIndex: 1), relationship, cause))
                    }
                }

                /// Refuses when a watched object is still there with its to-one empty.
                func verify(_ db: Database) throws {
                    for item in watched {
                        let table = item.table.replacingOccurrences(of: "\"", with: "\"\"")
                        let column = item.column.replacingOccurrences(of: "\"", with: "\"\"")
                        let sql = "SELECT 1 FROM \"\(table)\" WHERE \"_pk\" = ? AND \"\(column)\" IS NULL"
                        if try Int.fetchOne(db, sql: sql, arguments: [item.key]) != nil {
                            throw RecordError(
                                kind: .invalidValue, entity: item.entity, property: item.relationship, primaryKey: item.key,
                                message: "\(item.entity) _pk \(item.key) relationship \"\(item.relationship)\": a value is required, but \(item.cause) would leave it empty; link it to another object, or delete it first")
                        }
                    }
                }
            }
        }

        """#
}
