import Foundation
internal import RemodelSQLite

extension SQLiteValue {
    /// Reads an SQLite value: a column of a statement's current row (`sqlite3_column_value`) or a function's
    /// argument, through the value's own accessors. `textIsUTF8` reads text as the bytes it is stored as (no
    /// terminator copy), for a database whose text encoding is UTF-8; otherwise SQLite converts it to UTF-8.
    init(reading value: OpaquePointer?, textIsUTF8: Bool = false) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            if textIsUTF8 {
                let count = Int(sqlite3_value_bytes(value))
                guard count > 0, let bytes = sqlite3_value_blob(value) else {
                    self = .text("")
                    return
                }
                self = .text(String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self))
            } else {
                guard let text = sqlite3_value_text(value) else {
                    self = .text("")
                    return
                }
                let count = Int(sqlite3_value_bytes(value))
                self = .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let bytes = sqlite3_value_blob(value) else {
                self = .blob(Data())
                return
            }
            self = .blob(Data(bytes: bytes, count: count))
        default:
            self = .null
        }
    }
}
