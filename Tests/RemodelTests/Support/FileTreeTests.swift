import Foundation
import Testing

@testable import Remodel

/// The mapping folder's walk against Foundation's directory enumerator, the road it replaces: the same entries on
/// folders of every shape a user's mapping folder has (nested, hidden, links to files and folders, a folder named
/// like a file, a link to the folder itself).
struct FileTreeTests {
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
            let walked = FileTree.entries(under: start, endingWith: ".xml").sorted()
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

    /// What is at each path of a random tree, a folder's names and a file's bytes, as `FileManager` answers them.
    @Test(arguments: 0..<6)
    func kindsNamesAndBytesAreFoundationsAnswers(seed: UInt64) throws {
        var random = SplitMix64(seed: seed &+ 100)
        let folder = try TemporaryFolder()
        var paths = [folder.path]
        var folders = [folder.path]
        for step in 0..<20 {
            let parent = folders[Int(random.next() % UInt64(folders.count))]
            let path = parent + "/\(step)" + ["", ".xcdatamodel", ".hidden", " é"][Int(random.next() % 4)]
            switch random.next() % 4 {
            case 0:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                folders.append(path)
            case 1: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: paths.last!)
            default:
                let bytes = (0..<Int(random.next() % 70_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            }
            paths.append(path)
        }
        for path in paths + [folder.path + "/missing"] {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let kind = FileTree.kind(of: path)
            #expect(kind == (exists ? (isFolder.boolValue ? .folder : .file) : nil), "\(path)")
            if kind == .folder {
                let names = try FileManager.default.contentsOfDirectory(atPath: path)
                #expect(FileTree.names(in: path).sorted() == names.sorted(), "\(path)")
            } else {
                #expect(
                    FileTree.bytes(at: path) == FileManager.default.contents(atPath: path).map(Array.init), "\(path)")
            }
        }
    }

    /// A path's last component, its name without extension and its extension, as `URL` gives them.
    @Test func pathTextIsWhatURLGives() {
        let pieces = ["a", "B", ".", "..", "/", " ", "é", "xcdatamodel", "xcdatamodeld", "contents", "~", "-"]
        var random = SplitMix64(seed: 41)
        for _ in 0..<2_000 {
            let path =
                "/"
                + (0..<(1 + Int(random.next() % 7))).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            let url = URL(fileURLWithPath: path)
            let last = FileTree.lastComponent(of: path)
            guard !path.contains("/.") && !path.hasSuffix("/") else { continue }
            #expect(String(last) == url.lastPathComponent, "\(path)")
            #expect(
                String(FileTree.deletingExtension(of: last)) == url.deletingPathExtension().lastPathComponent, "\(path)"
            )
            #expect(String(FileTree.pathExtension(of: last)) == url.pathExtension, "\(path)")
        }
    }
}
