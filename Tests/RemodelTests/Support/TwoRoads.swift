import Foundation
import Testing

@testable import Remodel

/// A small model's versions written as a bundle, a store of its first version made from a seed and changed by
/// the app's SQL, and that store migrated to the last version both ways: in one pass (`composed`) and a pass
/// per step (`stepwise`), each on a copy of its own.
final class TwoRoads {
    let folder: TemporaryFolder
    let bundle: ModelBundle
    /// The store at the first version, as the app left it.
    let original: String

    /// The store each road migrates (a copy of ``original``).
    func store(composed: Bool) -> String { folder.file(composed ? "composed.sqlite" : "stepwise.sqlite") }

    var mappings: String { folder.file("Mappings") }

    init(
        _ name: String, versions: [(String, String)], seed: String, app: [String] = [],
        mappings: [(String, String)] = []
    ) throws {
        folder = try TemporaryFolder()
        let path = try BundleWriting.write(name, in: folder.path, versions: versions)
        try FileManager.default.createDirectory(atPath: folder.file("Mappings"), withIntermediateDirectories: true)
        for (file, xml) in mappings { _ = try folder.write(xml, to: "Mappings/" + file) }
        bundle = try ModelBundle(contentsOf: path)
        original = folder.file("original.sqlite")
        _ = try Store.create(
            at: original, bundle: bundle, version: versions[0].0, seed: try folder.write(seed, to: "seed.json"))
        let connection = try SQLiteConnection(path: original, mode: .readWrite)
        for statement in app { try connection.execute(statement) }
        for composed in [true, false] {
            try FileManager.default.copyItem(atPath: original, toPath: store(composed: composed))
        }
    }

    func options(composed: Bool) -> MigrationOptions {
        var options = MigrationOptions(mappingsDirectory: mappings, batchSize: 1)
        options.composesSteps = composed
        return options
    }

    /// Migrates one road's store to the last version.
    @discardableResult
    func migrate(composed: Bool) async throws -> MigrationReport {
        try await Migrator(bundle: bundle, options: options(composed: composed)).migrate(
            storeAt: store(composed: composed))
    }

    /// Migrates both roads, expecting both to succeed in as many passes as the plan has steps (step by step)
    /// and one (composed), and the same export; returns it.
    @discardableResult
    func migrateBoth(sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> String {
        let steps = bundle.versionNames.count - 1
        for composed in [true, false] {
            let migrator = Migrator(bundle: bundle, options: options(composed: composed))
            let passes = migrator.passes(of: try migrator.plan(storeAt: store(composed: composed))).count
            #expect(passes == (composed ? 1 : steps), sourceLocation: sourceLocation)
            try await migrate(composed: composed)
        }
        let exports = try [true, false].map { try export(composed: $0) }
        expectSameText(exports[0], exports[1], sourceLocation: sourceLocation)
        #expect(try schema(composed: true) == schema(composed: false), sourceLocation: sourceLocation)
        return exports[0]
    }

    /// The JSON export of one road's store.
    func export(composed: Bool) throws -> String {
        let output = folder.file("export.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        try Store.open(at: store(composed: composed), bundle: bundle).exportJSON(to: output)
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    /// Every schema object of one road's store, as SQLite keeps it.
    func schema(composed: Bool) throws -> [[SQLiteValue]] {
        try SQLiteConnection(path: store(composed: composed), mode: .readOnly).rows(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
    }

    /// Rows of a query on one road's store.
    func rows(_ sql: String, composed: Bool) throws -> [[SQLiteValue]] {
        try SQLiteConnection(path: store(composed: composed), mode: .readOnly).rows(sql)
    }

    /// Plans (as `status` and `--dry-run` do) and migrates both roads, expecting each to refuse with `message`
    /// and leave its store byte for byte as it was.
    func expectRefusal(
        _ message: String, code: RemodelError.Code = .migrationNotPlannable,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws {
        for composed in [true, false] {
            let path = store(composed: composed)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            do {
                _ = try Migrator(bundle: bundle, options: options(composed: composed)).plan(storeAt: path)
                if code == .migrationNotPlannable {
                    Issue.record("the plan did not refuse", sourceLocation: sourceLocation)
                }
            } catch {
                #expect(error.code == code, sourceLocation: sourceLocation)
                expectSameText(error.message, message, sourceLocation: sourceLocation)
            }
            do {
                try await migrate(composed: composed)
                Issue.record("the migration did not refuse", sourceLocation: sourceLocation)
            } catch let error as RemodelError {
                #expect(error.code == code, sourceLocation: sourceLocation)
                expectSameText(error.message, message, sourceLocation: sourceLocation)
            }
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the store changed",
                sourceLocation: sourceLocation)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".remodel-") }
                    .isEmpty, sourceLocation: sourceLocation)
        }
    }
}
