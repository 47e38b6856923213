import Foundation
package import Remodel
internal import RemodelSQLite

extension StoreMigrationResult.Reason {
    /// Why a store's migration failed, from the error's code, SQLite's result code or the system's
    /// `errno` (never from the message's words); `inspection` is what the file turned out to be,
    /// read after the failure, for errors about the store itself.
    package static func of(_ error: RemodelError, inspection: StoreInspection?) -> Self {
        switch error.code {
        case .incompatibleStore: return inspection.map { of($0.state) } ?? .incompatible
        case .newerStore: return .newerStore
        case .downgradeLosesData: return .downgradeLosesData
        case .otherModel: return .otherModel
        case .editedVersion: return .modifiedVersion
        case .schemaDrift: return .schemaDrift
        case .storeMissing: return .missing
        case .notAStore: return inspection.map { of($0.state) } ?? .notAStore
        case .locked: return .locked
        case .cancelled: return .cancelled
        case .validationFailed, .invalidValue: return .data
        case .migrationNotPlannable: return .notPlannable
        case .invalidMapping: return .invalidMapping
        case .invalidModel: return .invalidModel
        case .sqlite: return of(sqliteCode: error.sqliteCode ?? 0)
        case .io: return of(systemCause: error.cause)
        default: return .failed
        }
    }

    /// The reason a store in `state` cannot be migrated (``incompatible`` for a migratable state).
    static func of(_ state: StoreInspection.State) -> Self {
        switch state {
        case .missing: return .missing
        case .newer, .newerFormat: return .newerStore
        case .schemaDrift: return .schemaDrift
        case .modifiedVersion: return .modifiedVersion
        case .otherModel: return .otherModel
        case .notRemodelStore: return .notAStore
        case .notSQLite: return .damaged
        case .current, .older: return .incompatible
        }
    }

    /// SQLite's primary result codes (https://sqlite.org/rescode.html).
    private static func of(sqliteCode: Int32) -> Self {
        switch sqliteCode & 0xFF {
        case 5, 6: return .busy  // SQLITE_BUSY, SQLITE_LOCKED
        case SQLITE_FULL: return .diskFull
        case 7: return .memory  // SQLITE_NOMEM
        case 10, 14, 15: return .io  // SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PROTOCOL
        case 11, 26: return .damaged  // SQLITE_CORRUPT, SQLITE_NOTADB
        case 3, 8, 23: return .notWritable  // SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH
        default: return .failed
        }
    }

    /// An I/O error by the `errno` it carries: a full disk or missing rights, else an I/O error that may pass.
    private static func of(systemCause cause: (any Error & Sendable)?) -> Self {
        guard let code = (cause as? POSIXError)?.code else { return .io }
        switch code {
        case .ENOSPC, .EDQUOT: return .diskFull
        case .EACCES, .EPERM, .EROFS: return .notWritable
        case .ELOOP, .ENOTDIR, .ENAMETOOLONG: return .incompatible
        default: return .io
        }
    }
}
