import Foundation
import Remodel

/// Stops an import's `INSERT … SELECT` at the first value Remodel cannot hold, so values are checked in
/// the same scan that copies them: the copy's SQL calls `remodel_core_data_refuse(problem, key)` where a
/// value fails its check, the function records which check and which `Z_PK` and fails the statement, and
/// the importer then explains that one value (reading it again) in a sentence.
final class CoreDataRefusal: @unchecked Sendable {
    /// The SQL function's name.
    static let function = "remodel_core_data_refuse"
    /// The problem number that stands for an entity number that is not a concrete entity of the table.
    static let strayEntity: Int64 = -1

    private let lock = NSLock()
    private var found: (problem: Int64, key: Int64)?

    /// Registers the function on the connection the copy runs on.
    init(on connection: SQLiteConnection) throws(RemodelError) {
        try connection.createFunction(Self.function, argumentCount: 2, deterministic: false) { [self] arguments in
            guard arguments.count == 2, case .integer(let problem) = arguments[0], case .integer(let key) = arguments[1]
            else { throw Refused() }
            lock.locked { if found == nil { found = (problem, key) } }
            throw Refused()
        }
    }

    /// What the last failed statement refused, if it was this function (and forgets it).
    func take() -> (problem: Int64, key: Int64)? {
        lock.locked {
            defer { found = nil }
            return found
        }
    }

    /// The SQL that refuses `problem` for the row `s`.
    static func call(_ problem: Int64) -> String {
        "\(function)(\(problem), s.\(CoreDataName.primaryKey))"
    }

    /// The error the function fails its statement with (SQLite reports its description).
    struct Refused: Error, CustomStringConvertible {
        var description: String { "a value Remodel cannot hold" }
    }
}
