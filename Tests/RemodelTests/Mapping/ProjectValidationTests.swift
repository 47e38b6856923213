import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

struct ProjectValidationTests {
    private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-mapping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func theSampleMappingChecksClean() throws {
        let models = repository.appendingPathComponent("Models").path
        let mappings = repository.appendingPathComponent("Mappings").path
        let report = try ProjectValidation.validate(paths: [models, mappings])
        #expect(report.diagnostics.isEmpty)
        #expect(report.summary == "Checked 2 models (5 versions) and 1 mapping file: no problems.")
    }

    @Test func expressionErrorsPointIntoTheValueText() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.xml")
        try """
        <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
            <entity source="Person" destination="Person" filter="$source.books.@count">
                <attribute name="fullName" value="$source.firstName + $source.yearsSinceBirth"/>
                <attribute name="age" value="lower($source.lastName)"/>
            </entity>
        </mapping>
        """.write(to: file, atomically: true, encoding: .utf8)
        let models = repository.appendingPathComponent("Models").path
        let report = try ProjectValidation.validate(paths: [models, folder.path])
        #expect(
            report.diagnostics.map(\.description) == [
                "\(file.path):2:58: error: a filter must be true or false, but this is Integer; compare it, for example `… > 0` [mapping-filter-type]",
                "\(file.path):3:61: error: Person.fullName: cannot add String and Integer; convert the Integer with string(…) [expression-type]",
                "\(file.path):4:38: error: Person.age: unknown function 'lower'; did you mean 'lowercase'? [expression-syntax]",
            ])
    }

    @Test func aMappingForAnUnknownModelSaysWhereItLooked() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("shop.xml")
        try #"<mapping model="Shop" sourceVersion="A" destinationVersion="B"/>"#.write(
            to: file, atomically: true, encoding: .utf8)
        let diagnostics = ProjectValidation.check(
            mappingFile: file.path, bundles: [:], searched: ["Models", folder.path])
        #expect(
            diagnostics.map(\.description) == [
                "\(file.path):1:17: error: no model named 'Shop' was found (looked in Models, \(folder.path)); give its .xcdatamodeld bundle as a path too [mapping-unknown-model]"
            ])
    }

    @Test func anExpressionTooDeepForSQLiteIsCaughtWhenTheFileIsChecked() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("deep.xml")
        let chain = "$source.firstName" + String(repeating: " ?? $source.lastName", count: 30)
        try """
        <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
            <entity source="Person" destination="Person">
                <attribute name="fullName" value="\(chain)"/>
            </entity>
        </mapping>
        """.write(to: file, atomically: true, encoding: .utf8)
        let models = repository.appendingPathComponent("Models").path
        let report = try ProjectValidation.validate(paths: [models, folder.path])
        #expect(
            report.diagnostics.map(\.description) == [
                "\(file.path):3:43: error: Person.fullName: the expression nests too deeply for SQLite, which runs it (about 20 levels of nested operators and calls at most); split it into simpler parts, or compute it in a migration hook [expression-too-deep]"
            ])
    }
}
