import Foundation
import RemodelTesting
import Testing

@testable import Remodel

/// One invariant for every write path (issue 40, DESIGN "Typed access" and "JSON export and import"): every store
/// Remodel writes passes the full check — the model's every rule, as `migrate --check-everything` runs it, and
/// SQLite's `integrity_check` — and its export imports into a fresh store whose export is the same.
///
/// Random histories (``HistoryGenerator``: 4–9 versions of a small model, with mapping files for merges) and
/// their stores (generated objects, what an app adds, and values at the edges of each type that the model allows:
/// extreme integers, infinite doubles, `-0.0`, empty and NUL-holding text, dates outside the years 0000–9999),
/// through each path:
///
/// - `create --seed` and `import` of the seed generator's data for the first and the last version;
/// - `migrate` to the last version, composed and step by step;
/// - a downgrade (`--downgrade allow-loss`) of each of those stores to an earlier version: by a build that has only
///   the versions up to it, and within the bundle (`migrate --to V`);
/// - `rollback` of that downgrade, which must put back the store the migration made (same schema and export).
///
/// A path that refuses is fine (the composed history tests compare refusals); one that succeeds must leave a
/// store that passes. The records' own methods are the other half: `RecordWritesPropertyTests` (RecordsTests).
/// `import-core-data` needs a Core Data store of the model, which no generator writes: CoreDataImportCheckTests
/// runs the full check on what it imports from every Core Data store the suite has.
///
/// `REMODEL_WRITE_PATHS_COUNT` sets how many seeds run (8 by default), `REMODEL_WRITE_PATHS_SEED` the first.
@Suite(.tags(.slow), .skippable(.slow))
struct WritePathsPropertyTests {
    static let firstSeed =
        ProcessInfo.processInfo.environment["REMODEL_WRITE_PATHS_SEED"].flatMap { UInt64($0) } ?? 0x5A_0000
    static let count = ProcessInfo.processInfo.environment["REMODEL_WRITE_PATHS_COUNT"].flatMap { Int($0) } ?? 8
    static let groups: [[UInt64]] = {
        let seeds = (0..<UInt64(count)).map { firstSeed + $0 }
        let width = 4
        return (0..<width).map { group in seeds.enumerated().filter { $0.offset % width == group }.map(\.element) }
            .filter { !$0.isEmpty }
    }()

    @Test(arguments: groups) func everyWritePathLeavesAStoreThatPassesTheFullCheck(seeds: [UInt64]) async throws {
        for seed in seeds {
            do {
                try await check(seed: seed)
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    func check(seed: UInt64, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
        var generator = HistoryGenerator(seed: seed)
        let history = try generator.history(versions: Int.random(in: 4...9, using: &generator.random))
        let store = try HistoryStore(history, random: &generator.random)
        let bundle = store.bundle
        let names = bundle.versionNames
        var findings: [String] = []
        let edges = Self.edgeValues(try bundle.loadVersion(named: names[0]), random: &generator.random)
        try store.changeFirstStore(edges)
        findings += try Self.problems(ofStoreAt: store.firstStore, bundle: bundle, folder: store.folder).map {
            "the first store with edge values (\(edges.joined(separator: "; "))): \($0)"
        }
        func expectValid(_ path: String, _ road: String, bundle: ModelBundle = bundle) throws {
            findings += try Self.problems(ofStoreAt: path, bundle: bundle, folder: store.folder).map {
                "\(road): \($0)"
            }
        }
        // create --seed, and import into an empty store.
        for version in Set([names[0], names[names.count - 1]]).sorted() {
            let json = store.folder.file("seed-\(version).json")
            _ = try SeedGenerator(bundle: bundle, version: version).write(objects: 4, seedNumber: seed, to: json)
            let created = store.folder.file("created-\(version).sqlite")
            do {
                _ = try Store.create(at: created, bundle: bundle, version: version, seed: json)
                try expectValid(created, "create --seed at \(version)")
            } catch {
                findings.append("create --seed at \(version) refused the seed generator's data: \(error)")
            }
            let imported = store.folder.file("imported-\(version).sqlite")
            do {
                let empty = try Store.create(at: imported, bundle: bundle, version: version)
                _ = try empty.importJSON(from: json)
                try expectValid(imported, "import at \(version)")
            } catch {
                findings.append("import at \(version) refused the seed generator's data: \(error)")
            }
        }
        // migrate, composed and step by step.
        var migratedComposed = false
        for composed in [true, false] {
            guard case .migrated = try await store.migrate(composed: composed) else { continue }
            migratedComposed = migratedComposed || composed
            try expectValid(
                store.folder.file(composed ? "composed/store.sqlite" : "stepwise/store.sqlite"),
                "migrate \(composed ? "composed" : "step by step")")
        }
        // A downgrade to an earlier version, then rollback, which puts back the store the migration made: by a build
        // that has only the versions up to it (composed road), and within the bundle to `targetVersion` (`migrate
        // --to V --downgrade allow-loss`, step-by-step road).
        if names.count > 1 {
            for composed in [true, false] where !composed || migratedComposed {
                let migrated = store.folder.file(composed ? "composed/store.sqlite" : "stepwise/store.sqlite")
                guard FileManager.default.fileExists(atPath: migrated),
                    (try? Store.open(at: migrated, bundle: bundle).version.name) == names[names.count - 1]
                else { continue }
                let target = Int.random(in: 0..<(names.count - 1), using: &generator.random)
                let older =
                    composed
                    ? ModelBundle(
                        name: bundle.name, path: bundle.path, versions: Array(bundle.versions.prefix(target + 1)))
                    : bundle
                var options = MigrationOptions(targetVersion: composed ? nil : names[target])
                options.downgrade = .allowLoss
                let road = "downgrade to \(names[target]) (\(composed ? "an older build" : "--to, within the bundle"))"
                let before = try Self.state(ofStoreAt: migrated, bundle: bundle)
                let downgraded = try? await Migrator(bundle: older, options: options).migrate(storeAt: migrated)
                guard let downgraded, downgraded.isDowngrade else { continue }
                try expectValid(migrated, road, bundle: older)
                do {
                    _ = try Store.rollback(at: migrated)
                    try expectValid(migrated, "rollback of the \(road)")
                    if try Self.state(ofStoreAt: migrated, bundle: bundle) != before {
                        findings.append("rollback of the \(road) did not put back the store the migration made")
                    }
                } catch {
                    findings.append("rollback of the \(road) refused: \(error)")
                }
            }
        }
        #expect(
            findings.isEmpty,
            "seed \(seed):\n\(findings.joined(separator: "\n"))\n\(history.changes.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }

    /// Values at the edges of each attribute's type that the model allows, written over some objects of the first
    /// version's store (as an app or the records may write them): the extreme integers, infinite and negative-zero
    /// doubles, empty, long and NUL-holding text, and dates outside the years 0000–9999 or infinite.
    static func edgeValues(_ version: ModelVersion, random: inout SplitMix64) -> [String] {
        let layout = StoreLayout(version: version)
        var statements: [String] = []
        for entity in version.entities where !entity.isAbstract {
            guard let table = layout.table(forEntity: entity.name) else { continue }
            for attribute in layout.storedAttributes(of: entity) {
                guard Int.random(in: 0..<100, using: &random) < 50,
                    let column = layout.columnName(of: attribute.name, in: entity.name)
                else { continue }
                let values: [String]
                switch attribute.type {
                case .integer16: values = ["-32768", "32767"]
                case .integer32: values = ["-2147483648", "2147483647"]
                case .integer64: values = ["-9223372036854775808", "9223372036854775807"]
                case .double, .float: values = ["9e999", "-9e999", "-0.0", "1e308", "5e-324"]
                case .string: values = ["''", "'nul' || char(0) || 'byte'", "printf('%.300c', 'x')", #"'"q" ''s'''"#]
                case .date: values = ["4e11", "-1e12", "9e999", "-62135596800.0", "253402300800.0"]
                case .boolean: values = ["0", "1"]
                default: continue
                }
                let value = values[Int.random(in: 0..<values.count, using: &random)]
                let quoted = quoteIdentifier(table.name)
                statements.append(
                    "UPDATE \(quoted) SET \(quoteIdentifier(column)) = \(value) WHERE \(StoreColumn.pk) = (SELECT min(\(StoreColumn.pk)) FROM \(quoted) WHERE \(StoreColumn.entity) = \(quoteLiteral(entity.name)))"
                )
            }
        }
        return statements
    }

    /// A store's schema and export, to compare a store put back with the one it was.
    static func state(ofStoreAt path: String, bundle: ModelBundle) throws -> String {
        let store = try Store.open(at: path, bundle: bundle)
        let schema = try store.connection.rows("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
        return "\(store.version.name)\n\(schema)\n\(try store.exportJSONString())"
    }

    /// The full check of a store, and export → import into a fresh store → export (and the full check of that one).
    static func problems(ofStoreAt path: String, bundle: ModelBundle, folder: TemporaryFolder) throws -> [String] {
        let store = try Store.open(at: path, bundle: bundle)
        var problems = try store.checkEverything().map(\.description)
        let export = try store.exportJSONString()
        let file = folder.file("export-\(UUID().uuidString).json")
        try Data(export.utf8).write(to: URL(fileURLWithPath: file))
        let again = folder.file("again-\(UUID().uuidString).sqlite")
        defer {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: again)
        }
        do {
            let imported = try Store.create(at: again, bundle: bundle, version: store.version.name, seed: file)
            if try imported.exportJSONString() != export {
                problems.append("its export imported back exports otherwise")
            }
            problems += try imported.checkEverything().map { "its export imported back: \($0)" }
        } catch {
            problems.append("its export does not import back: \(error)")
        }
        return problems
    }
}

/// The same invariant on models with every attribute type, bounds, regular expressions, uniqueness constraints,
/// composites and hierarchies, which the random histories do not draw: every version of the fixture models (two
/// seed numbers) and the current version of each model of the shared corpus, seeded by the seed generator
/// (`create --seed`). `REMODEL_SEEDED_MODELS_ALL=1` seeds every version of the corpus too (minutes).
@Suite(.tags(.slow, .corpus), .skippable(.slow), .skippable(.corpus))
struct SeededModelsCheckTests {
    static let everyCorpusVersion = ProcessInfo.processInfo.environment["REMODEL_SEEDED_MODELS_ALL"] == "1"

    /// The models and whether every version of each is seeded.
    static func models() throws -> [(path: String, everyVersion: Bool)] {
        let root = ValidationSupport.packageRoot
        var paths = [
            "Models/Library.xcdatamodeld", "Models/Diligence.xcdatamodeld",
            "Tests/RemodelTests/Fixtures/Store/Everything.xcdatamodel",
            "Tests/RemodelTests/Fixtures/Generation/Rules.xcdatamodel",
            "Tests/RemodelTests/Fixtures/Generation/Names.xcdatamodel",
        ].map { (root.appendingPathComponent($0).path, true) }
        if ValidationSupport.corpusExists {
            var search = ModelSearch()
            try search.add(ValidationSupport.corpus.path)
            paths += search.models.map { ($0.path, everyCorpusVersion) }
        }
        return paths
    }

    @Test func everyVersionSeededPassesTheFullCheckAndImportsBack() throws {
        let folder = try TemporaryFolder()
        var findings: [String] = []
        var checked = 0
        for (path, everyVersion) in try Self.models() {
            guard let bundle = try? ModelBundle(contentsOf: path) else { continue }
            for version in everyVersion ? bundle.versionNames : [bundle.currentVersionName] {
                guard (try? bundle.requireNoErrors(inVersions: [version])) != nil else { continue }
                for seedNumber in (everyVersion ? [1, 2] : [1]) as [UInt64] {
                    let json = folder.file("seed.json")
                    let store = folder.file("store-\(checked).sqlite")
                    defer { try? FileManager.default.removeItem(atPath: store) }
                    do {
                        _ = try SeedGenerator(bundle: bundle, version: version).write(
                            objects: 3, seedNumber: seedNumber, to: json)
                        _ = try Store.create(at: store, bundle: bundle, version: version, seed: json)
                    } catch {
                        findings.append("\(path) \(version) seed \(seedNumber): create --seed refused: \(error)")
                        continue
                    }
                    checked += 1
                    findings += try WritePathsPropertyTests.problems(ofStoreAt: store, bundle: bundle, folder: folder)
                        .map { "\(path) \(version) seed \(seedNumber): \($0)" }
                }
            }
        }
        #expect(checked > 0)
        #expect(findings.isEmpty, "\(findings.prefix(20).joined(separator: "\n"))")
    }
}
