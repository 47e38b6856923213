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

    /// DashSync's history (version 6 → 7 without its mapping model) removes sub-entities of the transaction that
    /// `DSInstantSendLockEntity.transaction` requires: every lock linked to one of them failed phase 3, with no word
    /// from the plan. A relationship left optional and one whose destination keeps every entity are not named; one
    /// a sub-entity inherits is named once, on the entity that declares it.
    @Test func aRequiredRelationshipWhoseDestinationObjectsAreDroppedIsNamed() throws {
        let kept = """
            <entity name="Lock">
                <relationship name="item" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/>
                <relationship name="spare" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/>
                <relationship name="tag" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/>
            </entity>
            <entity name="BigLock" parentEntity="Lock"/>
            <entity name="Box"><relationship name="items" toMany="YES" minCount="2" deletionRule="Nullify" destinationEntity="Item"/></entity>
            <entity name="Item" isAbstract="YES"><attribute name="label" optional="YES" attributeType="String"/></entity>
            <entity name="Widget" parentEntity="Item"/>
            <entity name="Tag"><attribute name="text" optional="YES" attributeType="String"/></entity>
            """
        let gadget =
            #"<entity name="Gadget" parentEntity="Item"><attribute name="volts" optional="YES" attributeType="Integer 16"/></entity>"#
        let v1 = try makeVersion("A", kept + "\n" + gadget)
        let v2 = try makeVersion("B", kept)
        let diff = try ModelDiff(bundle: makeBundle("M", v1, v2), from: "A", to: "B")
        #expect(
            diff.lints.filter { $0.rule == "required-link-dropped" }.map(\.description) == [
                "warning: Lock.item is required, and the step removes entity Gadget, whose objects it may link to: a Lock linked to one is left with none and fails the migration, which names it; map that entity in a mapping file, or make Lock.item optional [required-link-dropped]",
                "warning: Box.items needs at least 2 objects, and the step removes entity Gadget, whose objects it may link to: a Box left with fewer fails the migration, which names it; map that entity in a mapping file, or lower its minimum [required-link-dropped]",
            ])
    }

    /// manicmaniac's core_data_model adds three attributes with defaults and makes them unique together: every
    /// object migrated gets the same three values, so any store with two objects fails. The lint says so, and keeps
    /// "may" where an attribute of the constraint carries values.
    @Test func aNewConstraintOverModelDefaultsAloneSaysEveryObjectSharesThem() throws {
        let v1 = try makeVersion(
            "A", #"<entity name="Info"><attribute name="name" optional="YES" attributeType="String"/></entity>"#)
        let v2 = try makeVersion(
            "B",
            """
            <entity name="Info">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="comma" attributeType="Integer 16" defaultValueString="0"/>
                <attribute name="kind" attributeType="String" defaultValueString="plain"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="comma"/><constraint value="kind"/></uniquenessConstraint>
                    <uniquenessConstraint><constraint value="name"/><constraint value="kind"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            """)
        let diff = try ModelDiff(bundle: makeBundle("M", v1, v2), from: "A", to: "B")
        #expect(
            diff.lints.map(\.description) == [
                "warning: Info gets a new uniqueness constraint on (comma, kind); inferred, every Info gets the model's defaults (0, plain) there, so a store with two or more Info objects fails the migration: give them distinct values in a mapping file [new-uniqueness-constraint]",
                "warning: Info gets a new uniqueness constraint on (name, kind); existing objects may hold duplicates, and the migration will fail naming them [new-uniqueness-constraint]",
            ])
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
