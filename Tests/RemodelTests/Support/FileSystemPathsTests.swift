import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The file-system questions a migration asks on its way, answered with POSIX calls, against Foundation's answers
/// (the road they replace): what is at a path, a folder's names, a file's text, removing, a path's last component.
struct FileSystemPathsTests {
    /// A random tree of folders, files and links (to files, folders and nothing), with odd names.
    private func randomTree(seed: UInt64, in folder: TemporaryFolder) throws -> [String] {
        var random = SplitMix64(seed: seed)
        var paths = [folder.path]
        var folders = [folder.path]
        for step in 0..<24 {
            let parent = folders[Int(random.next() % UInt64(folders.count))]
            let path = parent + "/\(step)" + ["", ".xcdatamodel", ".hidden", " é", ".a.b"][Int(random.next() % 5)]
            switch random.next() % 5 {
            case 0:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                folders.append(path)
            case 1: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: paths.last!)
            case 2: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + "-nothing")
            default:
                let bytes = (0..<Int(random.next() % 70_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            }
            paths.append(path)
        }
        return paths + [folder.path + "/missing"]
    }

    @Test(arguments: 0..<8)
    func kindsAndNamesAreFoundationsAnswers(seed: UInt64) throws {
        let folder = try TemporaryFolder()
        for path in try randomTree(seed: seed, in: folder) {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let kind = FileSystem.kind(of: path)
            #expect(kind == (exists ? (isFolder.boolValue ? .folder : .file) : nil), "\(path)")
            #expect(FileSystem.exists(atPath: path) == exists, "\(path)")
            if kind == .folder {
                let names = try FileManager.default.contentsOfDirectory(atPath: path)
                #expect(FileSystem.names(in: path).sorted() == names.sorted(), "\(path)")
            }
        }
    }

    /// Removing each path of a random tree, in a random order, leaves what `FileManager.removeItem` leaves in a
    /// twin tree: links are removed (never what they lead to), folders with everything in them.
    @Test(arguments: 0..<8)
    func removingLeavesWhatFoundationLeaves(seed: UInt64) throws {
        let mine = try TemporaryFolder()
        let theirs = try TemporaryFolder()
        let paths = try randomTree(seed: seed, in: mine).dropFirst().map { String($0.dropFirst(mine.path.count)) }
        _ = try randomTree(seed: seed, in: theirs)
        var random = SplitMix64(seed: seed &+ 1_000)
        for relative in paths.shuffled(using: &random).prefix(8) {
            let removed = FileSystem.removeItem(atPath: mine.path + relative)
            let foundation = (try? FileManager.default.removeItem(atPath: theirs.path + relative)) != nil
            #expect(removed == foundation, "\(relative)")
        }
        func listing(_ root: String) -> [String] {
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
        }
        #expect(listing(mine.path) == listing(theirs.path))
    }

    /// A path's last component, its name without extension and its extension, as `URL` gives them.
    @Test func pathTextIsWhatURLGives() {
        let pieces = [
            "a", "B", ".", "..", "/", " ", "é", "xcdatamodel", "xcdatamodeld", "contents", "~", "-", "\u{301}",
        ]
        var random = SplitMix64(seed: 41)
        var compared = 0
        for _ in 0..<2_000 {
            let path =
                "/"
                + (0..<(1 + Int(random.next() % 7))).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            // `URL` resolves `.` and `..` components; the paths a migration names (a store, a bundle) are as given.
            guard !path.contains("/.") && !path.hasSuffix("/") else { continue }
            let url = URL(fileURLWithPath: path)
            let last = FileSystem.lastComponent(of: path)
            #expect(String(last) == url.lastPathComponent, "\(path)")
            #expect(
                String(FileSystem.deletingExtension(of: last)) == url.deletingPathExtension().lastPathComponent,
                "\(path)")
            #expect(String(FileSystem.pathExtension(of: last)) == url.pathExtension, "\(path)")
            // `URL` writes `a//b`'s folder `a`, the file system reads `a/` as `a`.
            let bytes = Array(path.utf8)
            if !zip(bytes, bytes.dropFirst()).contains(where: { $0 == 0x2F && $1 == 0x2F }) {
                #expect(FileSystem.folder(of: path) == url.deletingLastPathComponent().path, "\(path)")
            }
            compared += 1
        }
        #expect(compared > 500)
    }

    /// A version order file's text (and a carried model's) as `String(contentsOfFile:encoding: .utf8)` reads it:
    /// UTF-8 with or without a byte order mark, nothing for other bytes.
    @Test func textIsWhatFoundationReads() throws {
        let folder = try TemporaryFolder()
        var random = SplitMix64(seed: 7)
        let pieces: [[UInt8]] = [
            Array("App 2 <- App2\n".utf8), [0xEF, 0xBB, 0xBF], Array("é".utf8), [0xC3], [0x80], [0xFF], [0],
            Array("😀".utf8), [0xED, 0xA0, 0x80], Array("#\r\n".utf8),
        ]
        for round in 0..<400 {
            let bytes = (0..<Int(random.next() % 6)).flatMap { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
            let path = folder.file("order-\(round)")
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let foundation = try? String(contentsOfFile: path, encoding: .utf8)
            #expect(FileSystem.text(atPath: path) == foundation, "\(bytes)")
        }
    }
}
