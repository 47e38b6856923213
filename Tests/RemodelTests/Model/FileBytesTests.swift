import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// `FileSystem.bytes(atPath:)`, which reads each model version, against Foundation's reading of the same files.
@Suite struct FileBytesTests {
    @Test func aFileReadsAsFoundationReadsIt() throws {
        let folder = try TemporaryFolder()
        var random = SplitMix64(seed: 29)
        // Empty, a byte, around a page, and larger than one read of some systems.
        for size in [0, 1, 4095, 4096, 4097, 70_000, 300_001] {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let path = folder.file("file-\(size)")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let read = FileSystem.bytes(atPath: path)
            #expect(read == bytes, "\(size) bytes")
            #expect(read.map { Data($0) } == FileManager.default.contents(atPath: path), "\(size) bytes")
        }
    }

    @Test func whatCannotBeReadIsNil() throws {
        let folder = try TemporaryFolder()
        #expect(FileSystem.bytes(atPath: folder.file("missing")) == nil)
        #expect(FileSystem.bytes(atPath: folder.path) == nil)
        #expect(FileManager.default.contents(atPath: folder.path) == nil)
    }
}
