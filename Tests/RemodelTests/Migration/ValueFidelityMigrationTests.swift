import Testing

@testable import Remodel

/// Every value type arrives unchanged: Decimal digits, Date milliseconds, UUID, Binary (empty, 0x00),
/// URI, Boolean, integer and Double extremes, infinities, text with quotes, emoji and NUL.
@Suite struct ValueFidelityMigrationTests {
    @Test func everyValueTypeIsCarriedExactly() async throws {
        try await MigrationCase.checkFixture("Values")
    }

    /// The export after the migration is the export before it, with only the new attribute added.
    @Test func exportBeforeAndAfterDifferOnlyByTheNewAttribute() async throws {
        let migration = try MigrationCase(fixture: "Values")
        let before = try migration.export()
        try await migration.migrate()
        let expected = before.replacingOccurrences(of: "}", with: ", \"extra\": null}")
            .replacingOccurrences(of: "\n, \"extra\": null}", with: "\n}")
        expectSameText(try migration.export(), expected)
    }
}
