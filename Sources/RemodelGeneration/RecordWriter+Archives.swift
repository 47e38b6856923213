/// Transformable attributes typed from their `customClassName` (`ArchivedValueType`): the schema's
/// `StoredArchive`, which keeps the bytes the store holds beside the value they archive, so that a record read and
/// written back leaves Core Data's archive as it was, and a value set in Swift is archived as `NSKeyedArchiver`
/// archives it (`KeyedArchiveCoding`, in `Remodel`).
extension RecordWriter {
    /// Whether any record of the version has an archived value: its files then import `Remodel`.
    var usesArchives: Bool {
        shape.entities.contains { entity in entity.attributes.contains { $0.archivedType != nil } }
    }

    func archiveSupportText() -> String {
        "\n" + Self.archiveSupportTemplate.replacingOccurrences(of: "SCHEMA", with: schema)
    }

    private static let archiveSupportTemplate = #"""
        extension SCHEMA {
            /// A Transformable attribute's value and the keyed archive the store holds for it: the archive read is
            /// written back as it was until the value is set.
            struct StoredArchive<Value: KeyedArchivable & Codable & Hashable>: Hashable, Sendable, Codable, DatabaseValueConvertible {
                let value: Value
                let stored: DatabaseValue

                /// A value set in Swift: archived as `NSKeyedArchiver` archives it.
                init(_ value: Value) {
                    self.value = value
                    self.stored = KeyedArchiveCoding.encode(value).databaseValue
                }

                init(value: Value, stored: DatabaseValue) {
                    self.value = value
                    self.stored = stored
                }

                var databaseValue: DatabaseValue { stored }

                /// A keyed archive of the value's type; anything else is nil (``archived(_:_:_:_:_:)`` names it).
                static func fromDatabaseValue(_ value: DatabaseValue) -> StoredArchive? {
                    guard case .blob(let bytes) = value.storage,
                        let decoded = try? KeyedArchiveCoding.decode(Value.self, from: bytes)
                    else { return nil }
                    return StoredArchive(value: decoded, stored: value)
                }

                static func == (lhs: StoredArchive, rhs: StoredArchive) -> Bool { lhs.value == rhs.value }

                func hash(into hasher: inout Hasher) { hasher.combine(value) }

                /// The value, from a decoder that is not GRDB's (GRDB's reads the column as the store holds it).
                init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(Value.self)) }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.singleValueContainer()
                    try container.encode(value)
                }
            }

            /// A Transformable attribute's keyed archive read as its type (`spelled` as the model's `customClassName`
            /// names it, for messages); bytes that are no such archive are refused, naming the object, the attribute
            /// and what the archive holds.
            static func archived<Value: KeyedArchivable & Codable & Hashable>(
                _ row: Row, _ index: Int, _ entity: String, _ attribute: String, _ type: Value.Type, _ spelled: String
            ) throws -> StoredArchive<Value>? {
                let stored = try row.decode(DatabaseValue.self, atIndex: index)
                switch stored.storage {
                case .null:
                    return nil
                case .blob(let bytes):
                    do {
                        return StoredArchive(value: try KeyedArchiveCoding.decode(Value.self, from: bytes), stored: stored)
                    } catch {
                        throw undecodable(row, entity, attribute, "a keyed archive that does not read (\(error))", "an archive of \(spelled)")
                    }
                default:
                    throw undecodable(row, entity, attribute, "\(stored)", "an archive of \(spelled)")
                }
            }
        }

        """#
}
