import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelTesting

/// The model's rules the generator meets, and the ones it cannot, named with entity and property.
struct SeedRulesTests {
    @Test func regularExpressionsAreMetOrTheAttributeIsNamed() throws {
        let bundle = try SeedSupport.bundle(
            """
            <entity name="Code">
                <attribute name="plate" attributeType="String" regularExpressionString="[A-Z]{2}-\\d{3}"/>
                <attribute name="first" attributeType="String" regularExpressionString="a|ab"/>
                <attribute name="look" optional="YES" attributeType="String" regularExpressionString="(?&lt;=x)y"/>
            </entity>
            <entity name="Strict">
                <attribute name="word" attributeType="String" regularExpressionString="\\bword\\b"/>
            </entity>
            """)
        let trip = try SeedSupport.roundTrip(bundle, version: "Test", objects: 30)
        expectSameText(trip.exported, trip.generated)
        let codes = try SeedSupport.objects(trip.generated, "Code")
        #expect(codes.count == 30)
        #expect(
            codes.allSatisfy {
                ($0["plate"] as? String)?.range(of: "^[A-Z]{2}-[0-9]{3}$", options: .regularExpression) != nil
            })
        #expect(codes.allSatisfy { $0["look"] is NSNull })
        #expect(trip.plan.counts["Strict"] == 0)
        let problems = trip.plan.problems.map(\.description)
        #expect(
            problems == [
                "Code.look: its regular expression (?<=x)y uses a lookaround \"(?<=\" (at offset 0), which the generator does not write strings for (it handles literals, classes, quantifiers, groups, alternation and anchors); the attribute is optional, so it is left empty",
                "Strict.word: its regular expression \\bword\\b uses a word boundary \"\\b\" (at offset 0), which the generator does not write strings for (it handles literals, classes, quantifiers, groups, alternation and anchors)",
                "Strict.word: the attribute is required, has no default that fits, and no value can be made for it, so no Strict objects are generated",
            ], "\(problems)")
    }

    @Test func uniquenessConstraintsHoldOrLimitTheObjects() throws {
        let bundle = try SeedSupport.bundle(
            """
            <entity name="Account">
                <attribute name="domain" attributeType="String"/>
                <attribute name="userID" attributeType="Integer 16" minValueString="1" maxValueString="60"/>
                <attribute name="active" attributeType="Boolean"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="domain"/><constraint value="userID"/></uniquenessConstraint>
                    <uniquenessConstraint><constraint value="userID"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Flag">
                <attribute name="on" attributeType="Boolean"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="on"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Badge">
                <attribute name="code" attributeType="String" regularExpressionString="[AB][0-9]"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            """)
        let trip = try SeedSupport.roundTrip(bundle, version: "Test", objects: 50)
        expectSameText(trip.exported, trip.generated)
        let accounts = try SeedSupport.objects(trip.generated, "Account")
        let userIDs = accounts.compactMap { $0["userID"] as? Int }
        #expect(userIDs.count == 50 && Set(userIDs).count == 50 && userIDs.allSatisfy { (1...60).contains($0) })
        #expect(trip.plan.counts["Flag"] == 2)
        #expect(trip.plan.counts["Badge"] == 20)
        let badges = try SeedSupport.objects(trip.generated, "Badge").compactMap { $0["code"] as? String }
        #expect(Set(badges).count == 20)
        #expect(
            trip.plan.problems.map(\.description) == [
                "Flag.on: the uniqueness constraint on (on) needs 50 different values, and only 2 were found for on; 2 Flag objects are generated",
                "Badge.code: the uniqueness constraint on (code) needs 50 different values, and only 20 were found for code; 20 Badge objects are generated",
            ])
    }

    @Test func relationshipCountsAreMetOnBothSides() throws {
        let bundle = try SeedSupport.bundle(
            """
            <entity name="Team">
                <relationship name="members" toMany="YES" minCount="2" maxCount="4" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                <relationship name="rivals" optional="YES" toMany="YES" maxCount="3" destinationEntity="Team" inverseName="rivals" inverseEntity="Team"/>
                <relationship name="captain" maxCount="1" destinationEntity="Player" inverseName="captainOf" inverseEntity="Player"/>
            </entity>
            <entity name="Player">
                <relationship name="team" maxCount="1" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
                <relationship name="captainOf" optional="YES" maxCount="1" destinationEntity="Team" inverseName="captain" inverseEntity="Team"/>
                <relationship name="mentor" optional="YES" maxCount="1" destinationEntity="Player" inverseName="mentees" inverseEntity="Player"/>
                <relationship name="mentees" optional="YES" toMany="YES" ordered="YES" destinationEntity="Player" inverseName="mentor" inverseEntity="Player"/>
            </entity>
            """)
        let trip = try SeedSupport.roundTrip(bundle, version: "Test", objects: 30)
        expectSameText(trip.exported, trip.generated)
        #expect(trip.plan.problems.isEmpty, "\(trip.plan.problems)")
        let teams = try SeedSupport.objects(trip.generated, "Team")
        #expect(teams.allSatisfy { (2...4).contains(($0["members"] as? [Int])?.count ?? 0) })
        #expect(teams.allSatisfy { (($0["rivals"] as? [Int])?.count ?? 0) <= 3 })
        #expect(
            Set(teams.compactMap { $0["captain"] as? Int }).count == teams.count, "a player captains one team at most")
        let players = try SeedSupport.objects(trip.generated, "Player")
        #expect(players.count >= 60, "players were added so that every team gets two: \(players.count)")
        #expect(players.allSatisfy { $0["mentor"] as? Int != $0["_pk"] as? Int })
    }

    @Test func rulesThatCannotBeMetAreNamed() throws {
        let bundle = try SeedSupport.bundle(
            """
            <entity name="Shape" isAbstract="YES">
                <attribute name="sides" attributeType="Integer 16"/>
            </entity>
            <entity name="Drawing">
                <relationship name="shape" maxCount="1" destinationEntity="Shape"/>
            </entity>
            <entity name="Album">
                <relationship name="photos" toMany="YES" minCount="5" destinationEntity="Photo"/>
            </entity>
            <entity name="Photo">
                <attribute name="width" attributeType="Integer 32" minValueString="10" maxValueString="5"/>
            </entity>
            """)
        let generator = SeedGenerator(version: bundle.currentVersion, counts: ["Photo": 3])
        let plan = generator.plan(objects: 4)
        #expect(plan.counts == ["Drawing": 0, "Album": 0, "Photo": 0])
        #expect(
            plan.problems.map(\.description) == [
                "Photo.width: its minimum 10 is above its maximum 5 for Integer 32",
                "Photo.width: the attribute is required, has no default that fits, and no value can be made for it, so no Photo objects are generated",
                "Drawing.shape: requires at least 1 Shape object, and Shape has no concrete entity among its kinds (it is abstract with no concrete sub-entity); so no Drawing objects are generated",
                "Album.photos: requires at least 5 Photo objects, and no Photo objects are generated; so no Album objects are generated",
            ], "\(plan.problems.map(\.description))")
        let folder = try TemporaryFolder()
        try generator.write(objects: 4, to: folder.file("seed.json"))
        // The seed is written, but no store is made with a model `remodel validate` rejects (minimum above maximum).
        let error = #expect(throws: RemodelError.self) {
            _ = try Store.create(at: folder.file("store.sqlite"), bundle: bundle, seed: folder.file("seed.json"))
        }
        #expect(error?.code == .invalidModel)
        #expect(error?.diagnostics.map(\.rule) == ["min-greater-than-max"])
        #expect(try folder.contents() == ["seed.json"])
    }

    @Test func aMinimumCountAboveTheObjectsThereAreIsNamed() throws {
        let bundle = try SeedSupport.bundle(
            """
            <entity name="Album">
                <relationship name="photos" toMany="YES" minCount="5" destinationEntity="Photo"/>
            </entity>
            <entity name="Photo">
                <attribute name="width" attributeType="Integer 32"/>
            </entity>
            """)
        let plan = SeedGenerator(version: bundle.currentVersion, counts: ["Photo": 3]).plan(objects: 4)
        #expect(plan.counts == ["Album": 0, "Photo": 3])
        #expect(
            plan.problems.map(\.description) == [
                "Album.photos: needs at least 5 different Photo objects, and there are 3; so no Album objects are generated (generate more objects)"
            ])
    }
}
