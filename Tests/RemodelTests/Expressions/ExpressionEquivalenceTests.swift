import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The interpreter and the compiled SQL must give identical stored values for
/// every well-typed expression over every row.
struct ExpressionEquivalenceTests {
    /// Override with `REMODEL_EXPRESSION_SEED` and `REMODEL_EXPRESSION_COUNT` to search further.
    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["REMODEL_EXPRESSION_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026_1122
    static let expressionCount =
        ProcessInfo.processInfo.environment["REMODEL_EXPRESSION_COUNT"].flatMap { Int($0) } ?? 600
    static let personCount = 20

    @Test func interpreterAndSQLAgree() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try ExpressionFunctions.register(on: connection)
        try LibraryFixture.createTables(on: connection)
        var generator = ExpressionGenerator(seed: Self.seed)
        let keys = try generator.insertRows(into: connection, persons: Self.personCount, books: 12)
        let rows = try LibraryRows(connection: connection)
        let environment = ExpressionEnvironment(secondsSince1970: 1_700_000_000.25)
        let interpreter = ExpressionInterpreter(environment: environment)
        let compiler = ExpressionSQLCompiler(environment: environment)
        let checker = LibraryFixture.checker
        let types: [ExpressionType] = [.integer, .double, .decimal, .string, .boolean, .boolean, .date, .uuid]

        var cases = 0
        var nulls = 0
        var reported: Set<Int> = []
        var failures: [String] = []
        for index in 0..<Self.expressionCount {
            let text = generator.expression(
                types[index % types.count], depth: Int.random(in: 1...5, using: &generator.random))
            let checked: CheckedExpression
            do {
                checked = try checker.check(text)
            } catch {
                failures.append("seed \(Self.seed) expression #\(index) does not check: \(text)\n  \(error)")
                continue
            }
            let compiled = compiler.compile(checked, context: LibrarySQLContext())
            let sqlRows = try connection.rows(
                "SELECT \"t0\".\"_pk\", \(compiled.sql) FROM \"Person\" AS \"t0\" ORDER BY \"t0\".\"_pk\"",
                compiled.parameters)
            #expect(sqlRows.count == keys.count)
            for (key, sqlRow) in zip(keys, sqlRows) {
                cases += 1
                let interpreted = try interpreter.evaluate(checked, row: rows.row(key))
                if interpreted.isNull { nulls += 1 }
                if !identical(interpreted, sqlRow[1]) && !reported.contains(index) && failures.count < 20 {
                    reported.insert(index)
                    failures.append(
                        """
                        seed \(Self.seed) expression #\(index): \(text)
                          row Person _pk \(key): \(rows.persons[key].map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\(show($0.value))" }.joined(separator: ", ") } ?? "")
                          interpreter: \(show(interpreted))
                          SQL:         \(show(sqlRow[1]))
                          compiled:    \(compiled.sql) \(compiled.parameters)
                        """)
                }
            }
        }
        #expect(cases >= 10_000)
        #expect(nulls < cases / 2, "too many nil results: \(nulls) of \(cases)")
        if !failures.isEmpty {
            Issue.record(
                "\(failures.count) disagreements (first row of each expression):\n\(failures.joined(separator: "\n"))")
        }
    }
}
