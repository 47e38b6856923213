import Foundation
import Testing

@testable import Remodel

/// The check that keeps `shared/corpus-coredata` as its manifest says (``CorpusManifest``) finds what a test that
/// opens a fixture in place leaves: a new `-wal` and `-shm`, a file changed in place (same size), a file gone.
struct CorpusManifestTests {
    @Test func findsNewSideFilesAChangedFileAndAFileGone() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("repo"), withIntermediateDirectories: true)
        let files = ["repo/Store.sqlite": "a store", "repo/Store.sqlite-shm": "shared memory", "README.md": "read me"]
        var manifest = ""
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            _ = try folder.write(text, to: name)
            manifest += "\(SHA256.hexDigest(Array(text.utf8)))  ./\(name)\n"
        }
        _ = try folder.write(manifest, to: "MANIFEST.sha256")
        let clean = CorpusManifest(folder: folder.path)
        clean.begin()
        #expect(clean.differences() == [])

        // What SQLite does to a WAL store opened in place, and a file removed.
        _ = try folder.write("", to: "repo/Store.sqlite-wal")
        _ = try folder.write("shared memorY", to: "repo/Store.sqlite-shm")
        try FileManager.default.removeItem(atPath: folder.file("README.md"))
        let during = "while this run's Core Data tests ran: a test wrote there (copy a fixture before opening it)"
        #expect(
            clean.differences() == [
                "\(folder.path)/repo/Store.sqlite-shm differs from MANIFEST.sha256: it changed \(during)",
                "\(folder.path)/repo/Store.sqlite-wal is not in MANIFEST.sha256: it appeared \(during)",
                "\(folder.path)/README.md, listed in MANIFEST.sha256, is gone",
            ])

        // A folder already so when the tests began is told apart: not this run's doing.
        let later = CorpusManifest(folder: folder.path)
        later.begin()
        #expect(
            later.differences().first
                == "\(folder.path)/repo/Store.sqlite-shm differs from MANIFEST.sha256: it changed before this run's Core Data tests began (a test reading it while the tests were listed, an older build's test or another program wrote there): restore the folder from its source"
        )
    }
}
