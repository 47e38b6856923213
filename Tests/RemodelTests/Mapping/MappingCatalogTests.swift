import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

struct MappingCatalogTests {
    /// A mappings folder given as a symbolic link (a deployment's `current` link, a mounted volume)
    /// is read like the folder it names; before, its files were silently left out and inference
    /// planned the step instead.
    @Test func aSymbolicLinkToTheFolderIsFollowed() throws {
        let folder = try TemporaryFolder()
        let link = folder.file("Mappings")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: MigrationFixtures.libraryMappings)
        let bundle = try MigrationFixtures.library()
        for directory in [link, link + "/"] {
            let catalog = MappingCatalog(directory: directory, bundle: bundle)
            #expect(
                catalog.files.count == 1 && catalog.files.first?.hasSuffix("/Library to Library 2.xml") == true,
                "\(catalog.files)")
            #expect(catalog.mappings[MappingCatalog.VersionPair(source: "Library", destination: "Library 2")] != nil)
        }
    }
}
