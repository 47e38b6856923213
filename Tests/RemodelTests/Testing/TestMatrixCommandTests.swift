import Foundation
import Testing

/// `remodel test-matrix` through the built binary: a table (or JSON) of every version migrated to the head,
/// and exit status 1 when a result is not the one expected.
struct TestMatrixCommandTests {
    private let model = ValidationSupport.packageRoot.appendingPathComponent("Models/Library.xcdatamodeld").path

    /// The text with the seconds column blanked, as it varies from run to run.
    private func withoutSeconds(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: "[0-9]+\\.[0-9]{2}$", with: "s.ss", options: .regularExpression) }
            .joined(separator: "\n")
    }

    @Test func theSampleModelPasses() throws {
        let result = try RemodelProcess.run([
            "test-matrix", model, "--mappings", MigrationFixtures.libraryMappings, "--objects", "10",
        ])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        expectSameText(
            withoutSeconds(result.output),
            """
            Library: 3 cases to Library 3, 10 objects per entity, seed number 1

            from → Library 3   result   objects   seconds
            Library            ok       20 → 20      s.ss
            Library 2          ok       20 → 20      s.ss
            Library 3          ok       30 → 30      s.ss

            3 cases: 3 ok.

            """)
    }

    @Test func aBrokenMappingFailsNamingVersionEntityAndAttribute() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(
            """
            <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
                <entity source="Person" destination="Person">
                    <attribute name="fullName" value="$source.firstName"/>
                    <attribute name="age" value="42"/>
                </entity>
            </mapping>
            """, to: "broken.xml")
        let result = try RemodelProcess.run([
            "test-matrix", model, "--mappings", folder.path, "--objects", "4", "--version", "Library",
        ])
        #expect(result.status == 1)
        expectSameText(
            withoutSeconds(result.output),
            """
            Library: 1 case to Library 3, 4 objects per entity, seed number 1

            from → Library 3   result                objects   seconds
            Library            failed (unexpected)   8 → 8        s.ss
                Library → Library 2: Person "age": the mapping file drops the values of Person.yearsSinceBirth: inference would carry them ($source.yearsSinceBirth), the file computes it as 42 (list "Person.age" as an intended change if that is the plan)

            1 case: 1 failed. 1 unexpected.

            """)
        let json = try RemodelProcess.run([
            "test-matrix", model, "--mappings", folder.path, "--objects", "4", "--version", "Library", "--format",
            "json",
        ])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(document["model"] as? String == "Library")
        #expect(document["unexpected"] as? Int == 1)
        let cases = try #require(document["cases"] as? [[String: Any]])
        #expect(cases.first?["from"] as? String == "Library")
        #expect(cases.first?["result"] as? String == "failed")
        let failure = try #require((cases.first?["failures"] as? [[String: Any]])?.first)
        #expect(failure["step"] as? String == "Library → Library 2")
        #expect(failure["entity"] as? String == "Person")
        #expect(failure["property"] as? String == "age")

        let intended = try RemodelProcess.run([
            "test-matrix", model, "--mappings", folder.path, "--objects", "4", "--intended", "Person.age",
        ])
        #expect(intended.status == 0, "\(intended.output)")
    }

    @Test func aMissingMappingIsUnexpectedUnlessAllowed() throws {
        let folder = try TemporaryFolder()
        let failing = try RemodelProcess.run(["test-matrix", model, "--mappings", folder.path, "--objects", "3"])
        #expect(failing.status == 1)
        #expect(failing.output.contains("Library            needs a mapping (unexpected)   6 → 6"))
        #expect(
            failing.output.contains("    Library → Library 2: Person.fullName: String attribute is new and required"))
        #expect(failing.output.hasSuffix("3 cases: 1 needs a mapping, 2 ok. 1 unexpected.\n"))
        let allowed = try RemodelProcess.run([
            "test-matrix", model, "--mappings", folder.path, "--objects", "3", "--allow-missing-mappings",
        ])
        #expect(allowed.status == 0)
        #expect(allowed.output.hasSuffix("3 cases: 1 needs a mapping (expected), 2 ok.\n"))
    }
}

extension TestMatrixCommandTests {
    /// A case whose migration turned values into nil is no plain "ok": it is counted apart, and each loss is
    /// printed under its row, with its expression, count and first object (issue 40 item 1).
    @Test func aCaseThatLosesValuesIsCountedApartAndPrinted() throws {
        let folder = try TemporaryFolder()
        let bundle = try BundleWriting.write(
            "People", in: folder.path,
            versions: [
                (
                    "People",
                    #"<entity name="Person"><attribute name="age" optional="YES" attributeType="String"/></entity>"#
                ),
                (
                    "People 2",
                    #"<entity name="Person"><attribute name="age" optional="YES" attributeType="Integer 32"/></entity>"#
                ),
            ])
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        _ = try folder.write(
            #"<mapping model="People" sourceVersion="People" destinationVersion="People 2"><entity source="Person" destination="Person"><attribute name="age" value="int(trim($source.age))"/></entity></mapping>"#,
            to: "Mappings/age.xml")
        let result = try RemodelProcess.run([
            "test-matrix", bundle, "--mappings", folder.file("Mappings"), "--objects", "3",
        ])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        expectSameText(
            withoutSeconds(result.output),
            """
            People: 2 cases to People 2, 3 objects per entity, seed number 1

            from → People 2   result           objects   seconds
            People            ok with losses   3 → 3        s.ss
                Lost: People → People 2: `int(trim($source.age))` gave nil for 3 values of Person.age, e.g. _pk 1 'meadow violet'
            People 2          ok               3 → 3        s.ss

            2 cases: 1 ok with losses, 1 ok.

            """)
        let json = try RemodelProcess.run([
            "test-matrix", bundle, "--mappings", folder.file("Mappings"), "--objects", "3", "--format", "json",
        ])
        #expect(json.output.contains(#""result": "ok with losses""#), "\(json.output)")
        #expect(json.output.contains(#""expression": "int(trim($source.age))""#), "\(json.output)")
    }
}
