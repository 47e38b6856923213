import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Model and mapping files written to hurt: external entities, entity expansion, huge
/// models, and malformed XML whose error must point at the cause.
struct HostileModelTests {
    private static let head = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>

        """
    private static let body = """
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Person" representedClassName="Person">
                <attribute name="name" attributeType="String" defaultValueString="&secret;"/>
            </entity>
        </model>

        """

    private func parse(_ text: String) throws(XMLDocumentReader.Failure) -> XMLNode {
        try XMLDocumentReader.parse(Array(text.utf8), file: "Hostile.xcdatamodel/contents")
    }

    /// A document type that names an external DTD which would define `&secret;`: the DTD
    /// is never loaded, so the entity stays undefined and its text never appears.
    @Test func externalDocumentTypeIsNeverLoaded() throws {
        let folder = try TemporaryFolder()
        let dtd = try folder.write("<!ENTITY secret \"LEAKED-FROM-DTD\">\n", to: "evil.dtd")
        for systemID in ["file://\(dtd)", dtd, "file:///etc/passwd"] {
            let text = Self.head + "<!DOCTYPE model SYSTEM \"\(systemID)\">\n" + Self.body
            do {
                let root = try parse(text)
                let value = root.children.first?.children.first?.attribute("defaultValueString") ?? ""
                #expect(!value.contains("LEAKED") && !value.contains("root:"), "external content read: \(value)")
            } catch {
                #expect(!error.message.contains("LEAKED") && !error.message.contains("root:"), "\(error.message)")
                #expect(error.message.contains("secret"), "\(error.message)")
            }
        }
    }

    /// Entity declarations (external, parameter, or internal) are refused before libxml2 sees them.
    @Test(arguments: [
        "<!DOCTYPE model [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]>",
        "<!DOCTYPE model [<!ENTITY % remote SYSTEM \"file:///etc/passwd\"> %remote;]>",
        "<!DOCTYPE model [<!ENTITY secret \"inline\">]>",
        "<!DOCTYPE model [ <!ELEMENT model ANY> <!ENTITY\n secret SYSTEM 'file:///etc/hostname'>]>",
    ])
    func entityDeclarationsAreRefused(doctype: String) throws {
        let error = #expect(throws: XMLDocumentReader.Failure.self) {
            try parse(Self.head + doctype + "\n" + Self.body)
        }
        #expect(error?.message.contains("entities") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("root:") == false)
    }

    /// Billion laughs: refused at once, in bounded time and memory.
    @Test func billionLaughsIsRefusedQuickly() throws {
        var doctype = "<!DOCTYPE model [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            doctype += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        doctype += "]>\n"
        let text = Self.head + doctype + Self.body.replacingOccurrences(of: "&secret;", with: "&lol9;")
        let started = Date()
        #expect(throws: XMLDocumentReader.Failure.self) { try parse(text) }
        #expect(Date().timeIntervalSince(started) < 1)
    }

    /// An entity reference that was never declared is an error, not an expansion.
    @Test func undeclaredEntityIsAnError() throws {
        let error = #expect(throws: XMLDocumentReader.Failure.self) { try parse(Self.head + Self.body) }
        #expect(error?.message.contains("secret") == true)
    }

    /// libxml2's last error for an unclosed element is "Premature end of data" at the end of the
    /// file; the reader reports the first, at the tag that does not match.
    @Test func malformedXMLReportsTheFirstErrorWhereItIs() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Person" representedClassName="Person">
                    <attribute name="name" attributeType="String"/>
                <entity name="Book" representedClassName="Book">
                    <attribute name="title" attributeType="String"/>
                </entity>
            </model>




            """
        let error = #expect(throws: XMLDocumentReader.Failure.self) { try parse(text) }
        #expect(error?.message.contains("mismatch") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("Premature end") == false)
        #expect(error?.location.line == 8, "\(String(describing: error?.location))")
    }

    /// Bytes that are not in the declared encoding: libxml2 reports that on its generic channel
    /// (standard error); the reader collects it and reports it as the cause, and prints nothing.
    @Test func wrongEncodingIsTheReportedCauseAndNothingIsPrinted() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: folder.file("Bad.xcdatamodel"), withIntermediateDirectories: true)
        let bytes =
            Array("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<model>\n<entity name=\"A".utf8) + [
                0xFF, 0xFF, 0xFF, 0xFF,
            ]
            + Array("\"/>\n</model>\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("Bad.xcdatamodel/contents")))
        let error = #expect(throws: XMLDocumentReader.Failure.self) {
            _ = try XMLDocumentReader.parse(bytes, file: "Bad")
        }
        #expect(error?.message.contains("input conversion failed") == true, "\(error?.message ?? "")")
        let outcome = try Reliability.remodel(["validate", folder.file("Bad.xcdatamodel")])
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("input conversion failed"), "\(outcome)")
        #expect(outcome.error.isEmpty, "libxml2 printed: \(outcome.error)")
    }

    /// Reads and validates a generated model of `count` entities in a ring of relationships; returns the seconds taken.
    private func readAndValidate(entities count: Int) throws -> Double {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n"
        text.reserveCapacity(count * 700)
        for index in 0..<count {
            let next = (index + 1) % count
            let previous = (index + count - 1) % count
            text += """
                <entity name="E\(index)" representedClassName="E\(index)">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="value" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E\(next)" inverseName="previous" inverseEntity="E\(next)"/>
                <relationship name="previous" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E\(previous)" inverseName="next" inverseEntity="E\(previous)"/>
                </entity>

                """
        }
        text += "</model>\n"
        let started = Date()
        let root = try parse(text)
        let (version, readingDiagnostics) = ModelFileReader.version(
            from: root, path: "Huge.xcdatamodel/contents", versionName: "Huge")
        let model = try #require(version)
        let diagnostics =
            readingDiagnostics
            + ModelValidator.validate(ModelBundle(name: "Huge", path: "Huge.xcdatamodel", versions: [model]))
        #expect(model.entities.count == count)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics.prefix(3))")
        return Date().timeIntervalSince(started)
    }

    /// 10 000 entities with relationships: read and validated in time that grows about
    /// linearly (a quarter of the model takes about a quarter of the time; quadratic growth would take
    /// sixteen times), and in bounded time.
    @Test func hugeModelIsReadAndValidatedInBoundedTime() throws {
        let quarter = try readAndValidate(entities: 2_500)
        let whole = try readAndValidate(entities: 10_000)
        #expect(whole < 10 * quarter + 1, "2 500 entities: \(quarter) s, 10 000: \(whole) s (quadratic?)")
        #expect(whole < 60, "10 000 entities took \(whole) s")
    }
}
