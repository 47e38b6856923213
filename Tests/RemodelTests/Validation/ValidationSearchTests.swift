import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// How `Validation.validate(paths:)` finds models and mapping files.
struct ValidationSearchTests {
    private let search = ValidationSupport.fixtures.appendingPathComponent("Search").path

    @Test func findsBundlesFoldersAndMappingFilesOnce() throws {
        let report = try Validation.validate(paths: [search, search + "/Nested/Shop.xcdatamodeld"])
        #expect(report.modelCount == 2)
        #expect(report.versionCount == 2)
        #expect(report.mappingFiles == [search + "/Mappings/ShopToShop2.xml"])
        #expect(report.diagnostics.isEmpty)
        #expect(report.summary == "Checked 2 models (2 versions) and 1 mapping file: no problems.")
    }

    @Test func throwsForAMissingPath() {
        #expect(throws: RemodelError.self) {
            try Validation.validate(paths: [search + "/Nowhere"])
        }
        do {
            _ = try Validation.validate(paths: [search + "/Nowhere"])
        } catch {
            #expect(error.code == .io)
            #expect(error.description.hasPrefix(search + "/Nowhere: no such file or folder"))
        }
    }

    @Test func readsAContentsFileGivenDirectly() throws {
        let path = ValidationSupport.fixtures.appendingPathComponent("Broken.xcdatamodel/contents").path
        let report = try Validation.validate(paths: [path])
        #expect(report.modelCount == 1)
        #expect(report.errorCount == 1)
        #expect(report.fails(strict: false))
    }
}
