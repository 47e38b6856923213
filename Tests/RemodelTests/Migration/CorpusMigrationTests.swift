import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// Every inferable consecutive version pair of the real Xcode models in the shared corpus,
/// migrated with generated objects: nothing lost, every relationship link kept.
@Suite(.tags(.corpus), .skippable(.corpus))
struct CorpusMigrationTests {
    @Test(.enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func everyInferablePairMigratesGeneratedData() async throws {
        var search = ModelSearch()
        try search.add(ValidationSupport.corpus.path)
        var migrated = 0
        var refused: [String] = []
        var foretold: [String] = []
        for model in search.models {
            guard let bundle = ModelReader.read(path: model.path).bundle, bundle.versions.count > 1 else { continue }
            // Versions after the current one are a newer app's: a store there is refused, not migrated.
            let current = bundle.index(ofVersion: bundle.currentVersionName) ?? bundle.versions.count - 1
            let versions = Array(bundle.versions.prefix(current + 1))
            for (source, destination) in zip(versions, versions.dropFirst()) {
                let mapping = MappingInference.infer(from: source, to: destination, modelName: bundle.name)
                guard mapping.problems.isEmpty else { continue }
                foretold += try Self.certainFailures(bundle: bundle, from: source, to: destination)
                if let refusal = try await migrate(bundle: bundle, from: source, to: destination, mapping: mapping) {
                    refused.append(refusal)
                } else {
                    migrated += 1
                }
            }
        }
        #expect(migrated == 77)
        // DashSync 7 removes four kinds of transaction; the generated instant-send locks of DashSync 6 point to
        // transactions of every kind, and their `transaction` is required, so the locks that pointed to a removed
        // kind would be left without one: phase 3 must refuse (a store with such locks cannot be migrated
        // without a mapping that says what becomes of them).
        // manicmaniac's model 2 adds three attributes defaulting to 0 and a uniqueness constraint over them:
        // every existing object gets the same values, so phase 3 must refuse, naming the duplicates.
        #expect(
            refused == [
                "DashSync DashSync 6 → DashSync 7: DSInstantSendLockEntity required",
                "model model → model 2: UserInfo unique",
            ])
        // The other road to the same answer: `remodel diff` says, before any store is touched, which of these
        // steps fail phase 3 whatever the data (a required link into a removed entity, a new constraint over the
        // model's defaults alone), and no other step.
        #expect(foretold == refused)
    }

    /// The steps `ModelDiff` says will fail phase 3 on a store whose objects link as generated data does, in the
    /// form `migrate` reports a refusal.
    private static func certainFailures(
        bundle: ModelBundle, from source: ModelVersion, to destination: ModelVersion
    ) throws -> [String] {
        let diff = try ModelDiff(bundle: bundle, from: source.name, to: destination.name)
        let context = "\(bundle.name) \(source.name) → \(destination.name)"
        return diff.lints.compactMap { lint in
            if lint.rule == DiagnosticRule.requiredLinkDropped.rawValue { return "\(context): \(lint.entity) required" }
            if lint.rule == DiagnosticRule.newUniquenessConstraint.rawValue,
                lint.message.contains("the model's defaults")
            {
                return "\(context): \(lint.entity) unique"
            }
            return nil
        }
    }

    /// Migrates generated data one step; returns "model step: entity rule" when phase 3 refused it (store left unchanged).
    private func migrate(
        bundle: ModelBundle, from source: ModelVersion, to destination: ModelVersion, mapping: MappingModel
    ) async throws -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "remodel-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        _ = try Store.create(at: path, bundle: bundle, version: source.name)
        let before: [String: Int64]
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try GeneratedStoreData.fill(connection, version: source, objectsPerEntity: 6)
            before = try counts(connection, version: source)
        }
        let context = "\(bundle.name) \(source.name) → \(destination.name)"
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try await Migrator(
                bundle: bundle, options: MigrationOptions(targetVersion: destination.name, batchSize: 4)
            ).migrate(storeAt: path)
        } catch  where error.code == .validationFailed {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original, "\(context)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["store.sqlite"], "\(context)")
            let rule = error.message.components(separatedBy: "[").last?.dropLast() ?? ""
            return "\(context): \(error.entity ?? "?") \(rule)"
        } catch {
            Issue.record("\(context): \(error)")
            return nil
        }
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let after = try counts(connection, version: destination)
        for entityMapping in mapping.entities where entityMapping.kind == .copy || entityMapping.kind == .transform {
            guard let from = entityMapping.source, let to = entityMapping.destination else { continue }
            #expect(after[to] == before[from], "\(context): \(from) → \(to) objects")
        }
        #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"), "\(context)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["store.sqlite"], "\(context)")
        return nil
    }

    private func counts(_ connection: SQLiteConnection, version: ModelVersion) throws -> [String: Int64] {
        let layout = StoreLayout(version: version)
        var result: [String: Int64] = [:]
        for entity in version.entities where !entity.isAbstract {
            guard let table = layout.table(forEntity: entity.name) else { continue }
            result[entity.name] =
                try connection.scalar(
                    "SELECT count(*) FROM \(quoteIdentifier(table.name)) WHERE \"_entity\" = ?", [.text(entity.name)])?
                .integerValue ?? -1
        }
        return result
    }
}
