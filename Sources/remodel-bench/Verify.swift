import Foundation
import Remodel

/// Checks that two stores hold the same rows in every table, the same columns and the same
/// indexes, and the same metadata except the history (whose dates and mapping differ).
enum Verify {
    static func compare(_ first: String, _ second: String, result: inout ScenarioResult) throws {
        let start = Measure.now()
        let connection = try SQLiteConnection(path: first, mode: .readOnly)
        try connection.attach(path: second, as: "other", readOnly: true)
        var problems: [String] = []
        let schema =
            "SELECT type, name, tbl_name, sql FROM %@.sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name"
        let mine = try connection.rows(schema.replacingOccurrences(of: "%@", with: "main"))
        let theirs = try connection.rows(schema.replacingOccurrences(of: "%@", with: "other"))
        if mine.map({ "\($0[0]) \($0[1])" }) != theirs.map({ "\($0[0]) \($0[1])" }) {
            problems.append("schemas differ: \(mine.map { "\($0[1])" }) vs \(theirs.map { "\($0[1])" })")
        }
        for row in mine where "\(row[0])" == "table" {
            guard case .text(let table) = row[1] else { continue }
            let columns = try connection.rows("SELECT name, type FROM pragma_table_info(?, 'main')", [.text(table)])
            let otherColumns = try connection.rows(
                "SELECT name, type FROM pragma_table_info(?, 'other')", [.text(table)])
            if columns != otherColumns {
                problems.append("\(table): columns differ \(columns) vs \(otherColumns)"); continue
            }
            let name = quoteIdentifier(table)
            let filter = table == "_RemodelMetadata" ? " WHERE key <> 'history'" : ""
            for (a, b) in [("main", "other"), ("other", "main")] {
                let count = try connection.scalar(
                    "SELECT count(*) FROM (SELECT * FROM \(a).\(name)\(filter) EXCEPT SELECT * FROM \(b).\(name)\(filter))"
                )
                if count != .integer(0) {
                    problems.append("\(table): \(count.map { "\($0)" } ?? "?") rows in \(a) not in \(b)")
                }
            }
            let rows = try connection.scalar("SELECT count(*) FROM main.\(name)")
            if case .integer(let count)? = rows { result.extra["rows.\(table)"] = Double(count) }
        }
        result.seconds = Measure.now() - start
        result.note = problems.isEmpty ? "identical" : problems.joined(separator: "; ")
        if !problems.isEmpty { result.extra["problems"] = Double(problems.count) }
    }
}
