import Foundation
import Testing

@testable import Remodel

/// One rule for names everywhere (DESIGN.md, "Names"; issue 40, item 6): what `validate` accepts in a model is a
/// name in a mapping expression too, the version order file's `#` and `<-` are found by bytes, and two names are
/// the same exactly when SQLite would say so (`café` with U+00E9 and `cafe` with U+0301 are two names).
struct OneNameRuleTests {
    private static let accented = "name\u{301}"

    /// Uni 2 adds `full`, computed from `name\u{301}` (an attribute whose last letter carries a combining accent),
    /// which `validate` accepts: the expression `$source.name\u{301}` used to be refused, "unexpected character".
    @Test func aNameValidateAcceptsIsANameInAnExpression() async throws {
        let folder = try TemporaryFolder()
        let attribute = #"<attribute name="\#(Self.accented)" optional="YES" attributeType="String"/>"#
        let full = #"<attribute name="full" optional="YES" attributeType="String"/>"#
        let path = try BundleWriting.write(
            "Uni", in: folder.path,
            versions: [
                ("Uni", #"<entity name="Person">\#(attribute)</entity>"#),
                ("Uni 2", #"<entity name="Person">\#(attribute)\#(full)</entity>"#),
            ])
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        _ = try folder.write(
            #"<mapping model="Uni" sourceVersion="Uni" destinationVersion="Uni 2"><entity source="Person" destination="Person"><attribute name="full" value="uppercase($source.\#(Self.accented))"/></entity></mapping>"#,
            to: "Mappings/uni.xml")
        let report = try Validation.validate(paths: [folder.path])
        #expect(report.diagnostics.map(\.description) == [])
        let bundle = try ModelBundle(contentsOf: path)
        let store = folder.file("uni.sqlite")
        _ = try Store.create(
            at: store, bundle: bundle, version: "Uni",
            seed: try folder.write(#"{"Person": [{"_pk": 1, "\#(Self.accented)": "ada"}]}"#, to: "seed.json"))
        _ = try await Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: folder.file("Mappings")))
            .migrate(storeAt: store)
        #expect(
            try SQLiteConnection(path: store, mode: .readOnly).rows(
                "SELECT \(quoteIdentifier(Self.accented)), full FROM Person") == [[.text("ada"), .text("ADA")]])
    }
}
