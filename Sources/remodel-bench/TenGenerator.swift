import Foundation
import Remodel

/// Builds a BenchTen store (ten entities, first version): created with `Store.create`, then every
/// entity's table filled with a tenth of the objects from its own columns. Every table has keys
/// 1…n, so an integer column holding `1 + (i × 7919) mod n` is both a plausible number and a valid
/// link for the to-one columns (`Order.customer`, `Product.category`, `Review.product`); text
/// columns hold `column-i`, unique per table (as `Product.sku` must be); real columns `i / 4`.
enum TenGenerator {
    static func generate(at path: String, objects: Int) throws {
        let model = SourceModel.ten
        _ = try Store.create(at: path, bundle: try model.bundle(), version: model.firstVersion)
        let perEntity = max(1, objects / 10)
        let (connection, indexes) = try Generator.openForLoading(path)
        let tables = try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%' ORDER BY name"
        )
        for row in tables {
            let table = Generator.textOf(row[0])
            let columns = try connection.rows("SELECT name, type FROM pragma_table_info(?)", [.text(table)])
            let names = columns.map { quoteIdentifier(Generator.textOf($0[0])) }
            let values = columns.map { column -> String in
                let name = Generator.textOf(column[0])
                switch (name, Generator.textOf(column[1]).uppercased()) {
                case ("_pk", _): return "i"
                case ("_entity", _): return "'\(table)'"
                case (_, "TEXT"): return "'\(name)-' || i"
                case (_, "REAL"): return "i / 4.0"
                default: return "1 + (i * 7919) % \(perEntity)"
                }
            }
            try connection.run(
                """
                INSERT INTO \(quoteIdentifier(table)) (\(names.joined(separator: ", ")))
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                SELECT \(values.joined(separator: ", ")) FROM n
                """, [.integer(Int64(perEntity))])
        }
        try Generator.finishLoading(connection, indexes: indexes)
    }
}
