import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A composed pass refuses with the words of step by step: the step named is the one that failed, not the
/// pass's last (found by ``ComposedHistoryTests``; issue 28, item 3). Items 2 drops one item through a
/// mapping file's filter, or fills a default that the app's unique index refuses; Items 3 adds an attribute.
struct ComposedRefusalTests {
    private static func item(_ extra: String = "") -> String {
        #"<entity name="Item"><attribute name="name" optional="YES" attributeType="String"/><attribute name="count" attributeType="Integer 32" defaultValueString="0"/>\#(extra)</entity>"#
    }
    private static let loose =
        #"<entity name="Item"><attribute name="name" optional="YES" attributeType="String"/><attribute name="count" optional="YES" attributeType="Integer 32"/></entity>"#
    private static let versions = [
        ("Items", loose), ("Items 2", item()),
        ("Items 3", item(#"<attribute name="note" optional="YES" attributeType="String"/>"#)),
    ]
    private static let seed =
        #"{"Item": [{"_pk": 1, "name": "pen", "count": null}, {"_pk": 2, "name": "ink", "count": null}]}"#

    /// The app's foreign keys are checked after each step: the row Items 2 leaves dangling is named with it.
    @Test func aRowAStepLeavesDanglingIsNamedWithThatStep() async throws {
        let filter =
            #"<mapping model="Items" sourceVersion="Items" destinationVersion="Items 2"><entity source="Item" destination="Item" filter="$source.name != 'pen'"/></mapping>"#
        let roads = try TwoRoads(
            "Items", versions: Self.versions, seed: Self.seed,
            app: [
                "CREATE TABLE app_order (id INTEGER PRIMARY KEY, item INTEGER REFERENCES Item (_pk))",
                "INSERT INTO app_order (item) VALUES (1)",
            ], mappings: [("filter.xml", filter)])
        try await roads.expectRefusal(
            """
            the data migrated from Items to Items 2 breaks the app's foreign keys, so the store was left as it was:
              - app_order "item": row 1 of the app's table app_order references a missing row of Item (its foreign key item → Item): the step removed or re-keyed the object it pointed to; delete or change that row (or its foreign key) before migrating [foreign-key-check]
            """, code: .validationFailed)
    }

    /// SQLite refusing what a step writes (the app's unique index on the defaults Items 2 fills in) names that
    /// step, not the pass.
    @Test func whatSQLiteRefusesIsNamedWithTheStepThatWroteIt() async throws {
        let roads = try TwoRoads(
            "Items", versions: Self.versions, seed: Self.seed, app: ["CREATE UNIQUE INDEX app_count ON Item (count)"])
        try await roads.expectRefusal(
            "the app's unique index app_count on Item (count) does not allow the values Items → Items 2 gives attribute Item.count: several objects get the same value (a default filled in, or a mapping's value), so SQLite refused them (UNIQUE constraint failed: Item.count) and the store was left as it was. Give those objects values that differ (in a mapping file), or drop the index before migrating and create it again after",
            code: .validationFailed)
    }
}
