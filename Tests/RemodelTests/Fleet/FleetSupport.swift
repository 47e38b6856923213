import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Fleets of small Library stores for the fleet tests: each store a file copy of a template made once
/// with `Store.create` (and migrated with the library for the later versions), so a few hundred cost
/// little.
final class FleetFolder {
    /// What a store is, and so what a fleet run must do with it.
    enum Kind: String, CaseIterable, Sendable {
        /// At "Library", 6 objects: migrated in 2 steps.
        case library1
        /// At "Library 2": migrated in 1 step.
        case library2
        /// At "Library 3", the current version: nothing to do.
        case current
        /// Names "Library 4", a version the bundle lacks, with hashes of no version: refused.
        case newer
        /// The first 4 KiB of a store: refused as damaged.
        case damaged
        /// Another program's SQLite database: refused.
        case notAStore
    }

    let folder: TemporaryFolder
    /// Every store made, by path.
    private(set) var kinds: [String: Kind] = [:]

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Makes `count` stores of a kind named `<prefix><n>.sqlite` (n from 1, zero-padded) and returns their paths.
    @discardableResult
    func add(_ kind: Kind, count: Int, prefix: String? = nil) throws -> [String] {
        let templates = try Self.templates.get()
        guard count > 0 else { return [] }
        return try (1...count).map { number in
            let path = folder.file("\(prefix ?? kind.rawValue)-\(String(format: "%03d", number)).sqlite")
            try FileManager.default.copyItem(atPath: templates.path(kind), toPath: path)
            kinds[path] = kind
            return path
        }
    }

    /// The paths of a kind, sorted.
    func paths(_ kind: Kind) -> [String] { kinds.filter { $0.value == kind }.map(\.key).sorted() }

    /// Every path, sorted.
    var allPaths: [String] { kinds.keys.sorted() }

    /// Files beside the stores that a migration left (`*.remodel-*`).
    func leftovers() throws -> [String] {
        try folder.contents().filter { $0.contains(".remodel-") }
    }

    /// The template stores, made once per test process in a folder named after it, which the process
    /// removes as it exits. Folders of other test runs (on this machine, at the same time) are theirs.
    struct Templates: Sendable {
        let folder: String
        func path(_ kind: Kind) -> String { folder + "/" + kind.rawValue + ".sqlite" }
    }

    /// The folder of this process's templates (its process id, then a UUID: a process id is used again).
    static let templatesFolder =
        NSTemporaryDirectory() + templatesPrefix + "\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
    static let templatesPrefix = "remodel-fleet-test-templates-"

    static let templates: Result<Templates, any Error> = Result {
        let templates = Templates(folder: templatesFolder)
        try FileManager.default.createDirectory(atPath: templates.folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FleetFolder.templatesFolder) }
        let bundle = try MigrationFixtures.library()
        _ = try Store.create(
            at: templates.path(.library1), bundle: bundle, version: "Library",
            seed: MigrationFixtures.path("Library", "seed.json"))
        for (kind, version) in [(Kind.library2, "Library 2"), (.current, "Library 3")] {
            try FileManager.default.copyItem(atPath: templates.path(.library1), toPath: templates.path(kind))
            let migrator = Migrator(
                bundle: bundle,
                options: MigrationOptions(mappingsDirectory: MigrationFixtures.libraryMappings, targetVersion: version))
            _ = try migrator.run(storeAt: templates.path(kind), cancellation: CancellationFlag()) { _ in }
        }
        try FileManager.default.copyItem(atPath: templates.path(.current), toPath: templates.path(.newer))
        do {
            let newer = try SQLiteConnection(path: templates.path(.newer), mode: .readWrite)
            try newer.execute(
                "UPDATE _RemodelMetadata SET value = 'Library 4' WHERE key = 'versionName'; UPDATE _RemodelMetadata SET value = 'hash of version 4' WHERE key LIKE 'entityHash.%'"
            )
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: templates.path(.library1)))
        try whole.prefix(4096).write(to: URL(fileURLWithPath: templates.path(.damaged)))
        do {
            let other = try SQLiteConnection(path: templates.path(.notAStore))
            try other.execute(
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hi')")
        }
        return templates
    }
}

/// Reading what a fleet run left: its report and each store's history.
enum FleetCheck {
    /// One line of a `--report` file.
    struct Line: Sendable {
        var path: String
        var outcome: String
        var reason: String?
        var from: String?
        var to: String?
        var steps: Int?
        var objects: Int?
        var message: String?
    }

    /// The report's lines, in order; a line that is not a JSON object fails the test, unless `tolerant`
    /// (a run killed while writing a line leaves it cut short).
    static func report(_ path: String, tolerant: Bool = false) throws -> [Line] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").compactMap { line in
            let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if parsed == nil && tolerant { return nil }
            let object = try #require(parsed, "not JSON: \(line)")
            return Line(
                path: try #require(object["path"] as? String), outcome: try #require(object["outcome"] as? String),
                reason: object["reason"] as? String, from: object["from"] as? String, to: object["to"] as? String,
                steps: object["steps"] as? Int, objects: object["objects"] as? Int,
                message: object["message"] as? String)
        }
    }

    /// The store's migration history, `from → to` per entry (`nil → V` for its creation).
    static func history(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        guard case .success(let metadata) = try StoreMetadata.read(from: connection) else { return [] }
        return metadata.history.map { "\($0.from ?? "nil") → \($0.to)" }
    }

    /// The history of a store created at "Library" and migrated once to "Library 3".
    static let migratedOnceFromLibrary = ["nil → Library", "Library → Library 2", "Library 2 → Library 3"]

    /// `remodel migrate STORES… --model Models/Library.xcdatamodeld --mappings Mappings …`, run to its end.
    static func migrate(
        _ stores: [String], _ options: [String], environment: [String: String] = [:], input: String? = nil
    ) throws -> Reliability.Outcome {
        try start(stores, options, environment: environment, input: input).wait()
    }

    /// The same, started.
    static func start(
        _ stores: [String], _ options: [String], environment: [String: String] = [:], input: String? = nil
    ) throws -> Reliability.Child {
        let executable: URL = try #require(Reliability.executable, "build the remodel product first (swift build)")
        return try Reliability.Child(
            executable,
            ["migrate"] + stores + ["--model", Reliability.modelPath, "--mappings", Reliability.mappingsPath] + options,
            environment: environment, input: input)
    }
}
