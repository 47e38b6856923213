import Testing

@testable import Remodel
@testable import RemodelModel

/// Phase 3's storage-type checks: a value of the wrong storage class in any column (written by a
/// hook, the way a faulty policy or mapping could) is reported, and a right one is not.
@Suite struct StorageTypeValidationTests {
    /// Migrates the Values fixture with `damage` run after phase 2; the error's lines, or none.
    private func failures(after damage: String) async throws -> [String] {
        let migration = try MigrationCase(fixture: "Values")
        var options = MigrationOptions()
        options.hooks.afterStep = { database in try database.connection.execute(damage) }
        do {
            try await migration.migrate(options)
            return []
        } catch let error as RemodelError {
            return error.message.split(separator: "\n").dropFirst().map { String($0.dropFirst(4)) }
        }
    }

    @Test func wrongStorageClassesAreFound() async throws {
        let found = try await failures(
            after: """
                UPDATE "Thing" SET "decimal" = x'01', "date" = 'soon', "uuid" = x'02', "uri" = 3.5, "flag" = 2, "int16" = 40000,
                "int32" = 2.5, "int64" = 'many', "double" = x'03', "float" = '', "text" = x'04' WHERE "_pk" = 1;
                UPDATE "Thing" SET "int64" = -9223372036854775808.0, "date" = x'', "text" = x'' WHERE "_pk" = 2;
                UPDATE "Thing" SET "int64" = 9300000000000000000.0, "int32" = -0.5, "int16" = 2.0 WHERE "_pk" = 3
                """)
        #expect(
            found == [
                #"Thing _pk 1 "decimal": the value is not text (found X'01') [type]"#,
                #"Thing _pk 1 "date": the value is not a number (found 'soon') [type]"#,
                #"Thing _pk 2 "date": the value is not a number (found X'') [type]"#,
                #"Thing _pk 1 "uuid": the value is not text (found X'02') [type]"#,
                #"Thing _pk 1 "flag": the value is not a Boolean (0 or 1) (found 2) [type]"#,
                #"Thing _pk 1 "int16": the value is not an Integer 16 (found 40000) [type]"#,
                #"Thing _pk 1 "int32": the value is not an Integer 32 (found 2.5) [type]"#,
                #"Thing _pk 3 "int32": the value is not an Integer 32 (found -0.5) [type]"#,
                #"Thing _pk 1 "int64": the value is not an Integer 64 (found 'many') [type]"#,
                #"Thing _pk 2 "int64": the value is not an Integer 64 (found -9.223372036854776e+18) [type]"#,
                #"Thing _pk 3 "int64": the value is not an Integer 64 (found 9.3e+18) [type]"#,
                #"Thing _pk 1 "double": the value is not a number (found X'03') [type]"#,
                #"Thing _pk 1 "float": the value is not a number (found '') [type]"#,
                #"Thing _pk 1 "text": the value is not text (found X'04') [type]"#,
                #"Thing _pk 2 "text": the value is not text (found X'') [type]"#,
            ])
    }

    /// One wrong integer alone: the scan that first asks whether any row fails compares instead of
    /// calling `typeof()`, and must still see each kind of real, text and blob that can be stored there.
    /// (The seed's -2^63, a right value that scan cannot tell from the real -2^63, is replaced first, so
    /// that nothing else makes the scan look closer.)
    @Test(arguments: [
        ("-9223372036854775808.0", "-9.223372036854776e+18"), ("9300000000000000000.0", "9.3e+18"), ("-0.5", "-0.5"),
        ("'many'", "'many'"), ("x'00'", "X'00'"), ("1e999", "inf"),
    ])
    func oneWrongIntegerIsFound(value: String, shown: String) async throws {
        let found = try await failures(
            after:
                #"UPDATE "Thing" SET "int64" = 0 WHERE "int64" = -9223372036854775808; UPDATE "Thing" SET "int64" = \#(value) WHERE "_pk" = 4"#
        )
        #expect(found == [#"Thing _pk 4 "int64": the value is not an Integer 64 (found \#(shown)) [type]"#])
    }

    /// Text that looks like a number in a text column, and whole numbers in real and integer columns,
    /// are the right storage classes.
    @Test func rightStorageClassesPass() async throws {
        let found = try await failures(
            after: """
                UPDATE "Thing" SET "text" = '12', "uri" = '', "double" = 3, "float" = -0.0, "date" = 0, "int64" = -9223372036854775808,
                "int32" = 7.0 WHERE "_pk" = 1
                """)
        #expect(found == [])
    }
}
