import Testing

@testable import Remodel
@testable import RemodelModel

/// Inferred attribute changes, store to store, checked object by object through the export.
@Suite struct AttributeInferenceMigrationTests {
    /// Added (empty, optional default, required default), removed, renamed by renaming identifier
    /// (elementID = old name, and elementID shared by both), optional → required with a default
    /// (nil becomes the default, empty text stays), required → optional.
    @Test func addedRemovedRenamedAndOptionality() async throws {
        let bundle = try MigrationFixtures.bundle("Attributes")
        let mapping = MappingInference.infer(from: bundle.versions[0], to: bundle.versions[1], modelName: bundle.name)
        #expect(mapping.problems.isEmpty)
        let item = try #require(mapping.entities.first)
        #expect(
            item.attributes.map { "\($0.destination)=\($0.value?.text ?? "nil")" } == [
                "keep=$source.keep", "title=$source.oldTitle", "reference=$source.code", "nick=$source.nick",
                "score=$source.score",
                "note=nil", "level=nil", "rank=nil",
            ])
        try await MigrationCase.checkFixture("Attributes")
    }

    /// Integer 16 → 32 → 64, Float → Double, Integer → Double and Decimal, and every scalar → String
    /// (Date as ISO 8601 with milliseconds, Double as Swift prints it, Boolean as true/false).
    @Test func wideningKeepsEveryValue() async throws {
        try await MigrationCase.checkFixture("Widening")
    }

    /// `string()` of a Date before 1970 must keep the millisecond it was stored with:
    /// `1969-12-31T23:59:59.999Z` is stored as -0.001 s, and `(-0.001 * 1000).rounded(.down)` is -2 ms.
    @Test
    func dateBefore1970ToStringKeepsItsMilliseconds() async throws {
        let source = try makeVersion(
            "D", #"<entity name="V"><attribute name="d" optional="YES" attributeType="Date"/></entity>"#)
        let destination = try makeVersion(
            "D 2", #"<entity name="V"><attribute name="d" optional="YES" attributeType="String"/></entity>"#)
        let folder = try TemporaryFolder()
        let seed = try folder.write(
            #"{"V": [{"_pk": 1, "d": "1969-12-31T23:59:59.999Z"}, {"_pk": 2, "d": "2001-01-01T00:00:00.007Z"}]}"#,
            to: "seed.json")
        let migration = try MigrationCase(bundle: makeBundle("D", source, destination), seed: seed)
        try await migration.migrate()
        expectSameText(
            try migration.export(),
            """
            {
              "V": [
                {"_pk": 1, "d": "1969-12-31T23:59:59.999Z"},
                {"_pk": 2, "d": "2001-01-01T00:00:00.007Z"}
              ]
            }

            """)
    }

    /// Only lossless conversions are inferred: Integer 64 → Double is refused before anything is written.
    @Test func integer64ToDoubleIsNotInferred() throws {
        let source = try makeVersion(
            "W", #"<entity name="V"><attribute name="n" optional="YES" attributeType="Integer 64"/></entity>"#)
        let destination = try makeVersion(
            "W 2", #"<entity name="V"><attribute name="n" optional="YES" attributeType="Double"/></entity>"#)
        let mapping = MappingInference.infer(from: source, to: destination, modelName: "W")
        #expect(mapping.problems.map(\.property) == ["n"])
    }
}
