import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// Real Xcode models must validate without errors, and the sample models without any diagnostic.
struct CorpusAndSampleTests {
    @Test(
        .tags(.corpus), .skippable(.corpus),
        .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func everyCorpusModelValidatesWithoutErrors() throws {
        let report = try Validation.validate(paths: [ValidationSupport.corpus.path])
        let errors = report.diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(errors == [])
        #expect(report.modelCount >= 20)
        #expect(report.versionCount >= 39)
        // Xcode's own .xcmappingmodel files are *.xml outside any bundle: listed, never an error.
        #expect(report.mappingFiles.allSatisfy { $0.hasSuffix("/xcmapping.xml") })
    }

    @Test func sampleModelsValidateWithoutAnyDiagnostic() throws {
        let models = ValidationSupport.packageRoot.appendingPathComponent("Models").path
        let report = try Validation.validate(paths: [models])
        #expect(report.diagnostics.map(\.description) == [])
        #expect(report.modelCount == 2)
        #expect(report.versionCount == 5)
    }

    @Test func sampleModelsHaveTheVersionsOthersRelyOn() throws {
        let root = ValidationSupport.packageRoot.appendingPathComponent("Models")
        let library = try ModelBundle(contentsOf: root.appendingPathComponent("Library.xcdatamodeld").path)
        #expect(library.versions.map(\.name) == ["Library", "Library 2", "Library 3"])
        #expect(library.currentVersion.name == "Library 3")
        let v2 = try #require(library.version(named: "Library 2"))
        let person2 = try #require(v2.entity(named: "Person"))
        #expect(person2.attribute(named: "age")?.elementID == "yearsSinceBirth")
        #expect(person2.attribute(named: "email") == nil)
        let v3 = try #require(library.version(named: "Library 3"))
        #expect(v3.entity(named: "Tag")?.uniquenessConstraints.map(\.properties) == [["name"]])
        #expect(v3.entity(named: "Book")?.relationship(named: "tags")?.inverseName == "books")

        let diligence = try ModelBundle(contentsOf: root.appendingPathComponent("Diligence.xcdatamodeld").path)
        #expect(diligence.versions.map(\.name) == ["Diligence", "Diligence 2"])
        #expect(diligence.currentVersion.name == "Diligence 2")
        let task = try #require(diligence.currentVersion.entity(named: "Task"))
        #expect(task.attribute(named: "color")?.elementID == "colorHex")
        #expect(task.attribute(named: "isArchived")?.defaultValue == "NO")
        #expect(
            diligence.currentVersion.entity(named: "FocusSession")?.attribute(named: "interruptions")?.type
                == .integer32)
    }
}
