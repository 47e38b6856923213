import Testing

/// One test per name rule, asserting the exact diagnostic text.
struct NameRuleTests {
    private let file = ValidationSupport.file

    @Test func reportsDuplicateEntityAtSecondName() throws {
        let body = """
                <entity name="Person">
                    <attribute name="name" attributeType="String"/>
                </entity>
                <entity name="Person">
                    <attribute name="name" attributeType="String"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):6:19: error: entity 'Person' is defined twice in version 'Test'; rename or remove one of them [duplicate-entity]"
            ])
    }

    @Test func reportsPropertyDeclaredTwice() throws {
        let body = """
                <entity name="Person">
                    <attribute name="name" attributeType="String"/>
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):5:26: error: entity 'Person' declares attribute 'name' twice; remove or rename one of them [duplicate-property]"
            ])
    }

    @Test func reportsSubentityRedefiningInheritedProperty() throws {
        let body = """
                <entity name="Animal" isAbstract="YES">
                    <attribute name="name" attributeType="String"/>
                </entity>
                <entity name="Dog" parentEntity="Animal">
                    <attribute name="name" attributeType="String"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):7:26: error: attribute 'Dog.name' redefines attribute 'name' that 'Dog' inherits from 'Animal'; remove it from 'Dog' or rename it [duplicate-property]"
            ])
    }

    @Test func reportsAttributeAndRelationshipWithOneName() throws {
        let body = """
                <entity name="Person">
                    <attribute name="home" attributeType="String"/>
                    <relationship name="home" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):5:9: warning: relationship 'Person.home' has no inverse, so the store cannot keep both sides consistent; add an inverse relationship to 'Person' [no-inverse]",
                "\(file):5:29: error: relationship 'Person.home' has the same name as attribute 'Person.home'; rename one of them [property-name-clash]",
            ])
    }

    @Test func reportsReservedNames() throws {
        let body = """
                <entity name="_Secret">
                    <attribute name="_pk" attributeType="Integer 64"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):3:19: error: entity '_Secret' has a reserved name: names starting with '_' are reserved for the store's own columns and tables; rename it [reserved-name]",
                "\(file):4:26: error: attribute '_Secret._pk' has a reserved name: the store uses '_pk' for its own column; rename it [reserved-name]",
            ])
    }

    @Test func reportsNamesThatAreNotIdentifiers() throws {
        let body = """
                <entity name="My Entity">
                    <attribute name="2fast" attributeType="String"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):3:19: error: entity 'My Entity' is not a valid name; use only letters, digits and underscores, and do not start with a digit [invalid-name]",
                "\(file):4:26: error: attribute 'My Entity.2fast' is not a valid name; use only letters, digits and underscores, and do not start with a digit [invalid-name]",
            ])
    }

    @Test func warnsAboutXcodeNamingConventions() throws {
        let body = """
                <entity name="person">
                    <attribute name="Name" attributeType="String"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):3:19: warning: entity 'person' should start with an uppercase letter, as Xcode expects; rename it to 'Person' [entity-name-case]",
                "\(file):4:26: warning: attribute 'person.Name' should start with a lowercase letter, as Xcode expects; rename it to 'name' [property-name-case]",
            ])
    }
}
