import Testing

/// One test per attribute and value rule, asserting the exact diagnostic text.
struct AttributeRuleTests {
    private let file = ValidationSupport.file

    @Test func reportsUnknownAttributeTypeAtItsValue() throws {
        let body = """
                <entity name="Person">
                    <attribute name="age" attributeType="Integer 12"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:46: error: attribute 'Person.age' has type 'Integer 12', which is not a Core Data attribute type; use one of Integer 16, Integer 32, Integer 64, Decimal, Double, Float, String, Boolean, Date, Binary, UUID, URI, Transformable, ObjectID, Composite [unknown-attribute-type]"
            ])
    }

    @Test func reportsUndefinedTypeOnlyWhenStored() throws {
        let body = """
                <entity name="Person">
                    <attribute name="age" attributeType="Undefined"/>
                    <attribute name="cache" optional="YES" transient="YES" attributeType="Undefined"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:46: error: attribute 'Person.age' has type Undefined, which only a transient attribute may have; choose a type or make it transient [unknown-attribute-type]"
            ])
    }

    @Test func reportsDefaultOutsideIntegerRange() throws {
        let body = """
                <entity name="Person">
                    <attribute name="age" attributeType="Integer 16" defaultValueString="40000"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:78: error: Integer 16 attribute 'Person.age' has default value '40000', which is not a whole number from -32768 to 32767; correct it or remove it [invalid-default-value]"
            ])
    }

    @Test func reportsBoundThatIsNotANumber() throws {
        let body = """
                <entity name="Reading">
                    <attribute name="value" attributeType="Double" minValueString="low"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:72: error: Double attribute 'Reading.value' has minimum 'low', which is not a number such as 1.5; correct it or remove it [invalid-value-bound]"
            ])
    }

    @Test func warnsAboutBooleanWordOnNumber() throws {
        let body = """
                <entity name="Book">
                    <attribute name="state" attributeType="Integer 16" defaultValueString="NO"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:80: warning: Integer 16 attribute 'Book.state' has default value 'NO', a Boolean word that Core Data reads as 0; write 0 instead [boolean-word-for-number]"
            ])
    }

    @Test func reportsMinimumAboveMaximum() throws {
        let body = """
                <entity name="Event">
                    <attribute name="start" attributeType="Date" minDateTimeInterval="700000000" maxDateTimeInterval="600000000" usesScalarValueType="NO"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:75: error: attribute 'Event.start' has minimum 700000000, greater than its maximum 600000000, so no value is valid; swap or correct them [min-greater-than-max]"
            ])
    }

    @Test func reportsRegularExpressionThatDoesNotCompile() throws {
        let body = """
                <entity name="Person">
                    <attribute name="email" attributeType="String" regularExpressionString="[a-"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:81: error: attribute 'Person.email' has regular expression '[a-', which does not compile; correct it (NSRegularExpression syntax) [invalid-regular-expression]"
            ])
    }

    @Test func warnsAboutTransformableWithoutTransformer() throws {
        let body = """
                <entity name="Person">
                    <attribute name="color" optional="YES" attributeType="Transformable"/>
                    <attribute name="shape" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
                </entity>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:9: warning: Transformable attribute 'Person.color' names no value transformer, so values are archived insecurely; set valueTransformerName (for example NSSecureUnarchiveFromData) [transformable-without-transformer]"
            ])
    }

    @Test func reportsMissingComposite() throws {
        let body = """
                <entity name="Place">
                    <attribute name="location" optional="YES" attributeType="Composite" composite="Coordinate"/>
                </entity>
                <composite name="Point">
                    <attribute name="x" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                </composite>

            """
        #expect(
            try ValidationSupport.diagnostics(body) == [
                "\(file):4:88: error: Composite attribute 'Place.location' names composite 'Coordinate', which this version does not define; add the composite or choose another one [unknown-composite]"
            ])
    }

    @Test(arguments: [
        ("Integer 32", "0.0"), ("Integer 64", "-9223372036854775808"), ("Boolean", "0.0"), ("Boolean", "YES"),
        ("Boolean", "true"), ("Decimal", "12.50"), ("Float", "1e3"), ("Date", "631123200"), ("String", ""),
        ("UUID", "3F2504E0-4F89-41D3-9A0C-0305E82C3301"), ("URI", "https://example.com/a?b=c"),
        // Beyond what Foundation's `Decimal` holds, and fine for a Double (the check once read them as Decimals).
        ("Double", "1e300"), ("Double", "-1.7976931348623157e308"), ("Double", "4.9e-324"), ("Date", "1e200"),
        ("Integer 64", "9223372036854775807.000000000000000000000000000000000000000000000"),
    ])
    func acceptsDefaultsCoreDataAccepts(type: String, value: String) throws {
        let body = """
                <entity name="Thing">
                    <attribute name="value" attributeType="\(type)" defaultValueString="\(value)"/>
                </entity>

            """
        #expect(try ValidationSupport.diagnostics(body) == [])
    }

    @Test(arguments: [
        ("Integer 16", "1.5"), ("Integer 32", "12abc"), ("Boolean", "2"), ("Boolean", "maybe"), ("Decimal", "1,5"),
        ("Float", "1e39"), ("Double", "nan"), ("Date", "yesterday"), ("UUID", "not-a-uuid"), ("URI", ""),
        ("Double", "1e400"), ("Decimal", "1e300"),
        ("Integer 64", "9223372036854775807.0000000000000000000000000000001"),
        ("Integer 16", "1e99999999999"), ("Integer 32", "-2147483648.5"),
    ])
    func rejectsDefaultsThatDoNotParse(type: String, value: String) throws {
        let body = """
                <entity name="Thing">
                    <attribute name="value" attributeType="\(type)" defaultValueString="\(value)"/>
                </entity>

            """
        let found = try ValidationSupport.diagnostics(body)
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix("[invalid-default-value]") == true)
    }
}
