import Testing

@testable import Remodel
@testable import RemodelModel

struct ModelDiffTests {
    @Test func lintsDroppedDataLikelyRenamesAndNewConstraints() throws {
        let v1 = try makeVersion(
            "A",
            """
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="mail" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>
            """)
        let v2 = try makeVersion(
            "B",
            """
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="email" optional="YES" attributeType="String"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            """)
        let diff = try ModelDiff(bundle: makeBundle("M", v1, v2), from: "A", to: "B")
        #expect(
            diff.lints.map(\.description).sorted() == [
                "warning: Person gets a new uniqueness constraint on (name); existing objects may hold duplicates, and the migration will fail naming them [new-uniqueness-constraint]",
                "warning: Person.mail is removed and Person.email of the same type is added: did you mean to set elementID=\"mail\" on \"email\"? [likely-rename]",
                "warning: Person.mail is removed: its values will be dropped [data-dropped]",
                "warning: entity Note is removed: all its objects will be dropped [data-dropped]",
            ])
        #expect(
            diff.text.contains(
                "  ~ Person: transform\n      + email (String): inferred: new, starts empty\n      - mail (String): dropped\n"
            ))
        #expect(diff.text.contains("  - Note: remove"))
    }

    @Test func narrowingAndRequiredWithoutDefaultAreErrors() throws {
        let v1 = try makeVersion(
            "A", #"<entity name="Item"><attribute name="code" optional="YES" attributeType="Integer 64"/></entity>"#)
        let v2 = try makeVersion(
            "B", #"<entity name="Item"><attribute name="code" attributeType="Integer 16"/></entity>"#)
        let diff = try ModelDiff(bundle: makeBundle("M", v1, v2), from: "A", to: "B")
        #expect(diff.lints.map(\.rule) == ["needs-mapping"])
        #expect(diff.lints.first?.severity == .error)
        #expect(diff.entities.first?.properties.first?.details == ["Integer 64 → Integer 16", "optional → required"])
    }
}
