import Testing

/// One test per relationship rule, asserting the exact diagnostic text.
struct RelationshipRuleTests {
    private let file = ValidationSupport.file

    @Test func reportsUnknownDeletionRule() throws {
        let body = """
                <entity name="A">
                    <relationship name="b" optional="YES" maxCount="1" deletionRule="Destroy" destinationEntity="B" inverseName="a" inverseEntity="B"/>
                </entity>
                <entity name="B">
                    <relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:74: error: relationship 'A.b' has deletion rule 'Destroy', which is not one of Nullify, Cascade, Deny, No Action; choose one of them [unknown-deletion-rule]"
            ])
    }

    @Test func reportsMissingDestination() throws {
        let body = """
                <entity name="Person">
                    <relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pet"/>
                    <relationship name="car" optional="YES" maxCount="1" deletionRule="Nullify"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:104: error: relationship 'Person.pet' has destination entity 'Pet', which does not exist; add it or choose another destination [missing-destination]",
                "\(file):5:9: error: relationship 'Person.car' has no destination entity; choose one [missing-destination]",
            ])
    }

    @Test func reportsInverseThatDoesNotExist() throws {
        let body = """
                <entity name="Person">
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="writer" inverseEntity="Book"/>
                </entity>
                <entity name="Book">
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:125: error: relationship 'Person.books' has inverse 'writer', but entity 'Book' has no relationship 'writer'; add it or choose another inverse [missing-inverse]"
            ])
    }

    @Test func reportsInverseThatDoesNotPointBack() throws {
        let body = """
                <entity name="Person">
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
                    <relationship name="favorites" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
                </entity>
                <entity name="Book">
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):5:129: warning: relationship 'Person.favorites' has inverse 'Book.author', but that relationship points to 'Person' with inverse 'books'; Remodel stores 'Person.favorites' as a relationship without an inverse; make each the other's inverse [inverse-mismatch]"
            ])
    }

    @Test func reportsInverseEntityOtherThanDestination() throws {
        let body = """
                <entity name="Person">
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Person"/>
                </entity>
                <entity name="Book">
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="books" inverseEntity="Person"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:148: error: relationship 'Person.books' has inverse entity 'Person' but destination 'Book'; the inverse belongs to the destination, so set inverseEntity to 'Book' [inverse-entity-mismatch]"
            ])
    }

    @Test func reportsCountThatIsNotANumber() throws {
        let body = """
                <entity name="Team">
                    <relationship name="members" toMany="YES" minCount="two" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:61: error: relationship 'Team.members' has minCount 'two', which is not a whole number of zero or more; correct it [invalid-count]"
            ])
    }

    @Test func reportsMinCountAboveMaxCount() throws {
        let body = """
                <entity name="Team">
                    <relationship name="members" toMany="YES" minCount="5" maxCount="3" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:61: error: relationship 'Team.members' has minCount 5, greater than its maxCount 3, so no object can be valid; lower minCount or raise maxCount [min-count-greater-than-max-count]"
            ])
    }

    @Test func warnsAboutMissingInverseAndDenyWithoutInverse() throws {
        let body = """
                <entity name="Person">
                    <relationship name="friends" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Person"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:9: warning: relationship 'Person.friends' has no inverse, so the store cannot keep both sides consistent; add an inverse relationship to 'Person' [no-inverse]",
                "\(file):4:80: warning: to-many relationship 'Person.friends' uses the Deny rule but has no inverse, so the rule cannot be checked from the other side; add an inverse or use another rule [deny-without-inverse]",
            ])
    }

    @Test func acceptsInverseDeclaredOnAbstractParent() throws {
        let body = """
                <entity name="Item" isAbstract="YES">
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>
                </entity>
                <entity name="Note" parentEntity="Item">
                    <attribute name="text" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Folder" parentEntity="Item">
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/>
                </entity>

            """
        #expect(try ValidationSupport.diagnostics(body) == [])
    }
}
