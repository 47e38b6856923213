import Foundation
import Testing

/// Runs the built `remodel` binary end to end.
struct ValidateCommandTests {
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try RemodelProcess.run(arguments)
        return (result.status, result.output)
    }

    @Test func reportsABrokenFileAndExitsWithOne() throws {
        let path = "Tests/RemodelTests/Fixtures/Validation/Broken.xcdatamodel"
        let (status, output) = try run(["validate", path])
        #expect(status == 1)
        #expect(
            output == """
                \(path)/contents:4:61: error: attribute 'Person.age' has type 'Integer 12', which is not a Core Data attribute type; use one of Integer 16, Integer 32, Integer 64, Decimal, Double, Float, String, Boolean, Date, Binary, UUID, URI, Transformable, ObjectID, Composite [unknown-attribute-type]
                Checked 1 model (1 version): 1 error.

                """)
    }

    @Test func exitsWithZeroOnTheSampleModels() throws {
        let (status, output) = try run(["validate", "Models"])
        #expect(status == 0)
        #expect(output == "Checked 2 models (5 versions): no problems.\n")
    }

    @Test func exitsWithTwoWhenThePathIsMissingOrAnOptionIsBad() throws {
        #expect(try run(["validate", "NoSuchFolder"]).status == 2)
        #expect(try run(["validate", "Models", "--format", "xml"]).status != 0)
    }

    @Test func strictFailsOnWarnings() throws {
        let path = "Tests/RemodelTests/Fixtures/Validation/Twins.xcdatamodeld"
        #expect(try run(["validate", path]).status == 0)
        #expect(try run(["validate", path, "--strict"]).status == 1)
    }
}

extension ValidateCommandTests {
    /// A mapping that gives a required attribute an optional value (`$source.phone`) or `nil` is warned about, so
    /// `--strict` fails before the migration refuses the data (issue 40 item 5); a required attribute with a
    /// default takes it in the nil's place, and is not. The hint for text added to a number converts the text
    /// when the attribute is a number (issue 43 item 5).
    @Test func anOptionalValueForARequiredAttributeIsWarnedAbout() throws {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "Contacts", in: folder.path,
            versions: [
                (
                    "Contacts",
                    #"<entity name="Person"><attribute name="phone" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="String"/></entity>"#
                ),
                (
                    "Contacts 2",
                    #"<entity name="Person"><attribute name="phone" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="Integer 32"/><attribute name="fullName" attributeType="String"/><attribute name="label" attributeType="String" defaultValueString="none"/></entity>"#
                ),
            ])
        func validate(_ fullName: String, age: String = "int($source.age)") throws -> (Int32, String) {
            let mapping = try folder.write(
                """
                <mapping model="Contacts" sourceVersion="Contacts" destinationVersion="Contacts 2">
                  <entity source="Person" destination="Person">
                    <attribute name="fullName" value="\(fullName)"/>
                    <attribute name="label" value="$source.phone"/>
                    <attribute name="age" value="\(age)"/>
                  </entity>
                </mapping>
                """, to: "contacts.xml")
            let result = try RemodelProcess.run(["validate", bundle, mapping, "--strict"])
            return (result.status, result.output)
        }
        let warning =
            "warning: Person.fullName: the value can be nil but the attribute is required; give a default with '?? …' [expression-optional]"
        let (phoneStatus, phone) = try validate("$source.phone")
        #expect(phoneStatus == 1)
        #expect(phone.hasPrefix(folder.file("contacts.xml") + ":3:39: " + warning + "\n"), "\(phone)")
        #expect(phone.hasSuffix("1 mapping file: 1 warning.\n"), "\(phone)")
        let (nilStatus, none) = try validate("nil")
        #expect(nilStatus == 1)
        #expect(none.hasPrefix(folder.file("contacts.xml") + ":3:39: " + warning + "\n"), "\(none)")
        let (cleanStatus, clean) = try validate("$source.phone ?? ''")
        #expect(cleanStatus == 0, "\(clean)")
        let (_, hint) = try validate("''", age: "$source.age + 1")
        #expect(
            hint.hasPrefix(
                folder.file("contacts.xml")
                    + ":5:46: error: Person.age: cannot add String and Integer; convert the String with int(…) (nil when the text is not a number) [expression-type]\n"
            ), "\(hint)")
    }
}
