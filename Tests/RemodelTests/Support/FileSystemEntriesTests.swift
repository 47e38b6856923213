import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The mapping folder's walk against Foundation's directory enumerator, the road it replaces: the same entries on
/// folders of every shape a user's mapping folder has (nested, hidden, links to files and folders, a folder named
/// like a file, a link to the folder itself).
struct FileSystemEntriesTests {
    @Test(arguments: 0..<12)
    func theWalkListsWhatFoundationsEnumeratorLists(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder()
        let root = folder.path + "/mappings"
        var folders = [root]
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // Each made unique by its step, written where the `#` is.
        let names = ["#a.xml", ".#hidden.xml", "#b.txt", "#c.XML", "#d.xml.bak", "#e f.xml", "#é.xml", "#x"]
        for step in 0..<24 {
            let parent = folders[Int(random.next() % UInt64(folders.count))]
            let name = names[Int(random.next() % UInt64(names.count))].replacingOccurrences(of: "#", with: "\(step)")
            let path = parent + "/" + name
            switch random.next() % 5 {
            case 0:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                folders.append(path)
            case 1:
                let target = folders[Int(random.next() % UInt64(folders.count))]
                try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            default:
                #expect(FileManager.default.createFile(atPath: path, contents: Data("<mapping/>".utf8)))
            }
        }
        let link = folder.path + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: root)
        for start in [root, link] {
            let walked = FileSystem.entries(under: start, endingWith: ".xml").sorted()
            let enumerator = FileManager.default.enumerator(
                atPath: URL(fileURLWithPath: start).resolvingSymlinksInPath().path)
            var listed: [String] = []
            while let entry = enumerator?.nextObject() as? String {
                if entry.hasSuffix(".xml") { listed.append(entry) }
            }
            #expect(walked == listed.sorted(), "seed \(seed), \(start)")
            #expect(!walked.isEmpty, "seed \(seed)")
        }
    }
}
