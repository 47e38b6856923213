import Foundation
import Testing

@testable import Remodel

/// Composite attributes through migrations: members added, removed, renamed (renaming identifiers) and widened,
/// nested composites too, composed and step by step alike; dropped members counted; what inference cannot do said
/// naming the member; values checked against the new members' rules in phase 3.
struct CompositeMigrationTests {
    private static func version(place: String, geo: String = CompositeModels.geoMembers) -> String {
        CompositeModels.trip(place: place, geo: geo)
    }

    /// Three versions: `city` renamed `town` (renaming identifier) with a new `country` defaulting to "FR" and
    /// `visits` widened to Integer 32; then `visits` removed and `geo` given an `alt` and losing `lon`.
    static let versions: [(String, String)] = [
        ("Trips", version(place: CompositeModels.placeMembers)),
        (
            "Trips 2",
            version(
                place: """
                    <attribute name="town" attributeType="String" elementID="city"/>
                    <attribute name="country" attributeType="String" defaultValueString="FR"/>
                    <attribute name="visits" optional="YES" attributeType="Integer 32"/>
                    <attribute name="since" optional="YES" attributeType="Date"/>
                    <attribute name="geo" optional="YES" attributeType="Composite" composite="Geo"/>
                    """)
        ),
        (
            "Trips 3",
            version(
                place: """
                    <attribute name="town" attributeType="String"/>
                    <attribute name="country" attributeType="String" defaultValueString="FR"/>
                    <attribute name="since" optional="YES" attributeType="Date"/>
                    <attribute name="geo" optional="YES" attributeType="Composite" composite="Geo"/>
                    """,
                geo: """
                    <attribute name="lat" attributeType="Double"/>
                    <attribute name="alt" optional="YES" attributeType="Double" defaultValueString="0"/>
                    """)
        ),
    ]

    static let seed = """
        {"Trip": [
          {"_pk": 1, "name": "Lyon", "place": {"city": "Lyon", "visits": 3, "geo": {"lat": 45.764, "lon": 4.8357}}},
          {"_pk": 2, "name": "Home", "place": null},
          {"_pk": 3, "name": "Nowhere", "place": {"city": "Nowhere", "since": "2021-01-02T03:04:05.678Z"}}
        ]}
        """

    @Test func reshapesMembersComposedAndStepByStepAlike() async throws {
        let roads = try TwoRoads("Trips", versions: Self.versions, seed: Self.seed)
        let export = try await roads.migrateBoth()
        expectSameText(
            export,
            """
            {
              "Trip": [
                {"_pk": 1, "name": "Lyon", "place": {"town": "Lyon", "country": "FR", "since": null, "geo": {"lat": 45.764, "alt": 0.0}}},
                {"_pk": 2, "name": "Home", "place": null},
                {"_pk": 3, "name": "Nowhere", "place": {"town": "Nowhere", "country": "FR", "since": "2021-01-02T03:04:05.678Z", "geo": null}}
              ]
            }

            """)
        // The stored text is the export's, as `import` writes it.
        let stored = try roads.rows("SELECT place FROM Trip WHERE _pk = 1", composed: true)
        #expect(
            stored == [
                [.text(#"{"town": "Lyon", "country": "FR", "since": null, "geo": {"lat": 45.764, "alt": 0.0}}"#)]
            ])
    }

    @Test func countsTheValuesOfDroppedMembers() async throws {
        let roads = try TwoRoads("Trips", versions: Self.versions, seed: Self.seed)
        let report = try await roads.migrate(composed: false)
        let losses = report.losses.map(\.description).sorted()
        #expect(
            losses == [
                "Trips 2 → Trips 3 drops Trip.place.geo.lon (1 value)",
                "Trips 2 → Trips 3 drops Trip.place.visits (1 value)",
            ], "\(losses)")
    }

    @Test func refusesANewRequiredMemberWithoutDefaultNamingIt() async throws {
        let next = Self.version(
            place: CompositeModels.placeMembers + #"<attribute name="zip" attributeType="String"/>"#)
        let roads = try TwoRoads("Trips", versions: [Self.versions[0], ("Trips 2", next)], seed: Self.seed)
        do {
            _ = try await roads.migrate(composed: true)
            Issue.record("the migration did not refuse")
        } catch let error as RemodelError {
            #expect(
                error.message.contains(#"Trip.place: member "zip" is new and required, with no default value"#),
                "\(error.message)")
        }
    }

    @Test func phaseThreeChecksValuesAgainstTheNewMembersRules() async throws {
        // Only a member's maximum changes: the values are carried as they are, and checked again.
        let next = Self.version(
            place: CompositeModels.placeMembers.replacingOccurrences(
                of: #"minValueString="0""#, with: #"minValueString="0" maxValueString="2""#))
        let roads = try TwoRoads("Trips", versions: [Self.versions[0], ("Trips 2", next)], seed: Self.seed)
        for composed in [true, false] {
            do {
                try await roads.migrate(composed: composed)
                Issue.record("the migration did not refuse")
            } catch let error as RemodelError {
                #expect(
                    error.message.contains(
                        #"Trip _pk 1 "place": the composite value does not fit composite Place: member "visits": must be at most 2, found 3"#
                    ), "\(error.message)")
            }
        }
    }

    @Test func phaseThreeNamesAValueTheAppDamaged() async throws {
        let roads = try TwoRoads(
            "Trips", versions: Array(Self.versions.prefix(2)), seed: Self.seed,
            app: [#"UPDATE Trip SET place = '{"city": 5}' WHERE _pk = 3"#])
        do {
            try await roads.migrate(composed: true)
            Issue.record("the migration did not refuse")
        } catch let error as RemodelError {
            #expect(
                error.message.contains(
                    #"Trip _pk 3 "place": the composite value does not fit composite Place: member "town": expected a string, found 5"#
                ), "\(error.message)")
        }
    }
}

/// Migrating down past a member the older version lacks: lossless refuses, naming the member and how many values
/// would go; with no value there it goes down, each value reshaped.
struct CompositeDowngradeTests {
    private static let newer = CompositeModels.trip(
        place: CompositeModels.placeMembers + #"<attribute name="country" optional="YES" attributeType="String"/>"#)

    private func scene(country: String) throws -> (TemporaryFolder, String, ModelBundle) {
        let folder = try TemporaryFolder()
        let newer = try ModelBundle(
            contentsOf: try BundleWriting.write(
                "Trips", in: folder.file("newer"),
                versions: [("Trips", CompositeModels.trip()), ("Trips 2", Self.newer)]))
        let older = try ModelBundle(
            contentsOf: try BundleWriting.write(
                "Trips", in: folder.file("older"), versions: [("Trips", CompositeModels.trip())]))
        let seed = #"{"Trip": [{"_pk": 1, "name": "a", "place": {"city": "Lyon", "country": \#(country)}}]}"#
        let store = folder.file("trips.sqlite")
        _ = try Store.create(
            at: store, bundle: newer, version: "Trips 2", seed: try folder.write(seed, to: "seed.json"))
        return (folder, store, older)
    }

    @Test func losslessRefusesToDropAMembersValues() async throws {
        let (folder, store, older) = try scene(country: #""FR""#)
        defer { withExtendedLifetime(folder) {} }
        var options = MigrationOptions()
        options.downgrade = .lossless
        do {
            _ = try await Migrator(bundle: older, options: options).migrate(storeAt: store)
            Issue.record("the lossy downgrade went ahead")
        } catch {
            #expect(error.code == .downgradeLosesData)
            #expect(error.message.contains("  - Trip.place.country (1 value)\n"), "\(error.message)")
        }
    }

    @Test func goesDownReshapingEachValueWhenNothingIsLost() async throws {
        let (folder, store, older) = try scene(country: "null")
        defer { withExtendedLifetime(folder) {} }
        var options = MigrationOptions()
        options.downgrade = .lossless
        _ = try await Migrator(bundle: older, options: options).migrate(storeAt: store)
        let value = try SQLiteConnection(path: store, mode: .readOnly).scalar("SELECT place FROM Trip")
        #expect(value == .text(#"{"city": "Lyon", "visits": null, "since": null, "geo": null}"#))
    }
}
