import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Fixtures of migration tests: `Tests/RemodelTests/Fixtures/Migration/<case>/` holds one
/// `.xcdatamodeld` bundle, `seed.json` (at the bundle's first version), `expected.json`
/// (the export after migrating to the current version) and, when the case needs them,
/// mapping files under `Mappings/`.
enum MigrationFixtures {
    /// The repository's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path

    /// `Tests/RemodelTests/Fixtures/Migration`.
    static let folder = packageRoot + "/Tests/RemodelTests/Fixtures/Migration"

    /// A file or folder of a case.
    static func path(_ caseName: String, _ name: String) -> String { folder + "/" + caseName + "/" + name }

    /// The case's `.xcdatamodeld` bundle (there is exactly one).
    static func bundle(_ caseName: String) throws -> ModelBundle {
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + caseName)
        let name = try #require(entries.first { $0.hasSuffix(".xcdatamodeld") }, "no bundle in \(caseName)")
        return try ModelBundle(contentsOf: path(caseName, name))
    }

    /// The case's `Mappings` folder, or nil when it has none.
    static func mappings(_ caseName: String) -> String? {
        let mappings = path(caseName, "Mappings")
        return FileManager.default.fileExists(atPath: mappings) ? mappings : nil
    }

    /// A text file of a case.
    static func text(_ caseName: String, _ name: String) throws -> String {
        try String(contentsOfFile: path(caseName, name), encoding: .utf8)
    }

    /// The sample `Models/Library.xcdatamodeld` (3 versions) and its `Mappings` folder.
    static func library() throws -> ModelBundle {
        try ModelBundle(contentsOf: packageRoot + "/Models/Library.xcdatamodeld")
    }
    static let libraryMappings = packageRoot + "/Mappings"
}

/// A store in a fresh temporary folder, created from a seed at an old version, to migrate and export.
final class MigrationCase {
    let folder: TemporaryFolder
    let bundle: ModelBundle
    let store: String

    /// Creates `store.sqlite` at `version` (default: the bundle's first version) from `seed`.
    init(bundle: ModelBundle, version: String? = nil, seed: String?) throws {
        folder = try TemporaryFolder()
        self.bundle = bundle
        store = folder.file("store.sqlite")
        _ = try Store.create(at: store, bundle: bundle, version: version ?? bundle.versions[0].name, seed: seed)
    }

    /// A fixture case: its bundle and `seed.json`.
    convenience init(fixture caseName: String, version: String? = nil) throws {
        try self.init(
            bundle: try MigrationFixtures.bundle(caseName), version: version,
            seed: MigrationFixtures.path(caseName, "seed.json"))
    }

    /// Migrates the store with `options`.
    @discardableResult
    func migrate(
        _ options: MigrationOptions = MigrationOptions(),
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws -> MigrationReport {
        try await Migrator(bundle: bundle, options: options).migrate(storeAt: store, progress: progress)
    }

    /// The store's JSON export, as text.
    func export() throws -> String {
        let output = folder.file("export.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        try Store.open(at: store, bundle: bundle).exportJSON(to: output)
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    /// The store's version name, read from its metadata.
    func versionName() throws -> String {
        try Store.open(at: store, bundle: bundle).version.name
    }

    /// Every file in the folder with its bytes, to show that something changed nothing.
    func snapshot() throws -> FolderSnapshot { try FolderSnapshot(folder.path) }
}

/// The names and bytes of every file in a folder and its subfolders (by path from the folder).
struct FolderSnapshot: Equatable, CustomStringConvertible {
    var files: [String: Data]

    init(_ path: String) throws {
        var files: [String: Data] = [:]
        var folders = [""]
        while let folder = folders.popLast() {
            for name in try FileManager.default.contentsOfDirectory(atPath: path + "/" + folder) {
                let relative = folder.isEmpty ? name : folder + "/" + name
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isFolder)
                if isFolder.boolValue {
                    folders.append(relative)
                } else {
                    files[relative] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + relative))
                }
            }
        }
        self.files = files
    }

    var description: String {
        files.keys.sorted().map { "\($0) (\(files[$0]?.count ?? 0) bytes)" }.joined(separator: ", ")
    }
}

/// Collects values handed over from other threads (progress callbacks).
final class Collector<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Compares two texts byte for byte and, when they differ, says where.
func expectSameText(_ actual: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    guard actual != expected else { return }
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    var line = 0
    while line < min(actualLines.count, expectedLines.count), actualLines[line] == expectedLines[line] { line += 1 }
    let got = line < actualLines.count ? String(actualLines[line]) : "<end>"
    let wanted = line < expectedLines.count ? String(expectedLines[line]) : "<end>"
    Issue.record(
        "texts differ at line \(line + 1):\n  got:      \(got)\n  expected: \(wanted)\n--- full output ---\n\(actual)",
        sourceLocation: sourceLocation)
}

extension MigrationCase {
    /// Creates a fixture case's store, migrates it to the current version (with the case's mapping
    /// files, if any) and checks the export against `expected.json` byte for byte.
    @discardableResult
    static func checkFixture(
        _ caseName: String, batchSize: Int = 25_000, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> MigrationCase {
        let migration = try MigrationCase(fixture: caseName)
        let report = try await migration.migrate(
            MigrationOptions(mappingsDirectory: MigrationFixtures.mappings(caseName), batchSize: batchSize))
        #expect(report.targetVersion == migration.bundle.currentVersion.name, sourceLocation: sourceLocation)
        #expect(try migration.versionName() == migration.bundle.currentVersion.name, sourceLocation: sourceLocation)
        #expect(
            try migration.folder.contents() == ["store.sqlite"], "nothing is left beside the store",
            sourceLocation: sourceLocation)
        expectSameText(
            try migration.export(), try MigrationFixtures.text(caseName, "expected.json"),
            sourceLocation: sourceLocation)
        return migration
    }
}

/// Cancels the task running a migration when its progress callback asks, as a user cancels a task:
/// from outside, while the callback waits on the migration's thread. So the cancellation lands at
/// exactly the value that asked for it.
final class CancelRequest: @unchecked Sendable {
    // `didAsk` is guarded by `lock`.
    private let lock = NSLock()
    private var didAsk = false
    private let asked = DispatchSemaphore(value: 0)
    private let granted = DispatchSemaphore(value: 0)

    /// From the progress callback: asks for the task to be cancelled, and waits until it is.
    func cancelAndWait() {
        lock.lock()
        didAsk = true
        lock.unlock()
        asked.signal()
        granted.wait()
    }

    /// From the task, once the migration is over: a ``grant(to:)`` still waiting then returns false.
    func migrationEnded() {
        asked.signal()
    }

    private var askedForCancellation: Bool {
        lock.lock()
        defer { lock.unlock() }
        return didAsk
    }

    /// Waits for the callback to ask (or the migration to end without asking), cancels `task`, and
    /// lets the callback return. No time limit: the task may wait long for a thread of a busy pool.
    /// - Returns: Whether the callback asked.
    func grant<Success, Failure>(to task: Task<Success, Failure>) async -> Bool {
        let asked = self.asked
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                asked.wait()
                continuation.resume()
            }
        }
        let didAsk = askedForCancellation
        task.cancel()
        granted.signal()
        return didAsk
    }
}
