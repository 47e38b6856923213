import Foundation
import Testing

@testable import Remodel

/// A folder of fixtures held to its `MANIFEST.sha256` (`<sha256>  ./<path>`, one file a line, as `sha256sum`
/// writes it): every file listed has its hash, and nothing else is there — no `-wal` or `-shm` that a
/// connection left beside a store, no file changed in place.
///
/// Files are hashed once; later looks hash again only the files whose size, times or inode changed (any write
/// changes a file's `ctime`, which no program can set back).
final class CorpusManifest: @unchecked Sendable {
    let folder: String
    /// The manifest's hashes by path (`./a/b`); nil when the folder has no manifest.
    private let expected: [String: String]?
    // Guarded by `lock`.
    private let lock = NSLock()
    /// What each file was at the last look, and whether it matched the manifest then.
    private var seen: [String: (stamp: [Int64], matched: Bool)] = [:]
    /// What each file was when the first suite began, to tell what changed while the tests ran.
    private var baseline: [String: [Int64]]?
    /// The differences already told (path and what the file was): each is told once a run.
    private var told: Set<[String]> = []

    init(folder: String) {
        self.folder = folder
        expected = Self.read(folder + "/MANIFEST.sha256")
    }

    /// Whether the folder has a manifest to hold it to.
    var hasManifest: Bool { expected != nil }

    /// Notes what the folder holds before the first suite that reads it runs (once; later calls do nothing).
    func begin() {
        lock.withLock { if baseline == nil { baseline = Self.stamps(in: folder) } }
    }

    /// What differs from the manifest and was not told by an earlier call, one sentence a file (empty when the folder
    /// is as it says), each saying whether it changed while the tests ran or was so before the first ``begin()``.
    func differences() -> [String] {
        guard let expected else { return [] }
        return lock.withLock {
            let stamps = Self.stamps(in: folder)
            var found: [(path: String, sentence: String)] = []
            for (path, stamp) in stamps.sorted(by: { $0.key < $1.key }) {
                let when =
                    baseline?[path] == stamp
                    ? "before this run's Core Data tests began (a test reading it while the tests were listed, an older build's test or another program wrote there): restore the folder from its source"
                    : "while this run's Core Data tests ran: a test wrote there (copy a fixture before opening it)"
                guard let hash = expected[path] else {
                    found.append(
                        (path, "\(folder)/\(path.dropFirst(2)) is not in MANIFEST.sha256: it appeared \(when)"))
                    continue
                }
                let matched: Bool
                if let last = seen[path], last.stamp == stamp {
                    matched = last.matched
                } else {
                    matched = Self.sha256(of: folder + "/" + path) == hash
                    seen[path] = (stamp, matched)
                }
                if !matched {
                    found.append(
                        (path, "\(folder)/\(path.dropFirst(2)) differs from MANIFEST.sha256: it changed \(when)"))
                }
            }
            for path in expected.keys.sorted() where stamps[path] == nil {
                found.append((path, "\(folder)/\(path.dropFirst(2)), listed in MANIFEST.sha256, is gone"))
            }
            // The same difference (a file, as it is now) is told once.
            return found.filter { told.insert([$0.path, "\(stamps[$0.path] ?? [])"]).inserted }.map(\.sentence)
        }
    }

    /// `./path` → hash, from the manifest's lines.
    private static func read(_ path: String) -> [String: String]? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var hashes: [String: String] = [:]
        for line in text.split(separator: "\n") where line.utf8.count > 66 {
            let hash = String(line.prefix(64))
            // `sha256sum` puts two characters between the hash and the path (a space and ` ` or `*`).
            hashes[String(line.dropFirst(66))] = hash.lowercased()
        }
        return hashes
    }

    /// Every entry of the folder but folders and the manifest itself (`./a/b`), with its size, inode and times.
    private static func stamps(in folder: String) -> [String: [Int64]] {
        var result: [String: [Int64]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return result }
        while let relative = walker.nextObject() as? String {
            var status = stat()
            guard lstat(folder + "/" + relative, &status) == 0, status.st_mode & S_IFMT != S_IFDIR,
                relative != "MANIFEST.sha256"
            else { continue }
            result["./" + relative] = [
                Int64(status.st_mode), Int64(status.st_size), Int64(status.st_ino), Int64(status.st_nlink),
                Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec), Int64(status.st_ctim.tv_sec),
                Int64(status.st_ctim.tv_nsec),
            ]
        }
        return result
    }

    /// The file's SHA-256 in lowercase hex; "" when it cannot be read (or is no regular file).
    private static func sha256(of path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            let bytes = FileManager.default.contents(atPath: path)
        else { return "" }
        return SHA256.hexDigest(bytes)
    }
}

extension CoreDataCorpus {
    /// `shared/corpus-coredata` held to its manifest by every suite that reads it (``CorpusStaysUnchanged``).
    static let manifest = CorpusManifest(folder: folder)
}

/// Checks, when a suite that reads `shared/corpus-coredata` is done, that the folder is still exactly as its
/// `MANIFEST.sha256` says (issue 40, item 7): a test that opened a fixture in place — even read-only, which makes
/// or changes a WAL store's `-wal` and `-shm` beside it — fails the suite, naming each file. Swift Testing runs
/// suites in no set order, so every such suite carries the trait, and the last to finish checks after all of them.
struct CorpusStaysUnchanged: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard CoreDataCorpus.exists, CoreDataCorpus.manifest.hasManifest else { return try await function() }
        CoreDataCorpus.manifest.begin()
        try await function()
        let differences = CoreDataCorpus.manifest.differences()
        if !differences.isEmpty {
            Issue.record(
                Comment(
                    rawValue: "shared/corpus-coredata is not as its MANIFEST.sha256 says:\n"
                        + differences.joined(separator: "\n")))
        }
    }
}

extension SuiteTrait where Self == CorpusStaysUnchanged {
    /// See ``CorpusStaysUnchanged``.
    static var corpusStaysUnchanged: Self { Self() }
}
