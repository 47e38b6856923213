import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData

/// Every real store of `shared/corpus-coredata` through its own model (`Z_MODELCACHE`): `extract-model`
/// writes a bundle that validates and equals the model file beside the store (but for what the store's
/// own model says otherwise, listed below), and an import without a model file brings every object,
/// value, link and order over, checked against the store read the plain way.
@Suite(.tags(.corpus), .skippable(.corpus), .corpusStaysUnchanged) struct CoreDataModelCacheCorpusTests {
    /// What a store's compiled model says differently from the model file of the version it matches: the
    /// file was edited after the store was written, without a new version (for an import, the store's own
    /// model is the truth).
    static let knownDifferences: [String: [String]] = [
        "SRGSSR__srguserdata-apple/UserData_DB_v3/Data.sqlite": [
            "HistoryEntry.dirty: default NO in the file, none in the store"
        ]
    ]

    @Test(CoreDataCorpusTests.enabled, arguments: CoreDataCorpus.fixtures)
    func extractsTheModelTheStoreWasWrittenWith(fixture: CoreDataCorpus.Fixture) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let source = try fixture.copyStore(into: folder.file("source"))
        let before = try folderBytes(folder.file("source"))
        let output = folder.file("Extracted.xcdatamodeld")
        let file = try ModelBundle(contentsOf: fixture.bundlePath).loadVersion(named: fixture.version)
        guard fixture.hasModelCache else {
            // The oldest store (framework 419) predates the cache: refused, saying what to do.
            let error = try #require(throws: RemodelError.self) {
                try Store.extractCoreDataModel(from: source, to: output)
            }
            #expect(
                error.description
                    == "\(source): the Core Data store keeps no compiled model (no Z_MODELCACHE row; Core Data writes one from iOS 11 and macOS 10.13 on), so Remodel cannot tell its model: pass the app's model with --model"
            )
            #expect(!FileManager.default.fileExists(atPath: output))
            return
        }
        let extracted = try Store.extractCoreDataModel(from: source, to: output)
        #expect(try folderBytes(folder.file("source")) == before, "extract-model wrote in the source's folder")
        let bundle = try ModelBundle(contentsOf: output)
        #expect(bundle.versionNames == ["Extracted"] && bundle.currentVersionName == "Extracted")
        #expect(ModelValidator.validate(bundle).filter { $0.severity == .error }.isEmpty)
        #expect(
            ModelComparison.differences(file, extracted) == Self.knownDifferences[
                "\(fixture.repository)/\(fixture.store)"] ?? [])
    }

    @Test(CoreDataCorpusTests.enabled, arguments: CoreDataCorpus.fixtures.filter(\.hasModelCache))
    func importsEveryObjectWithoutTheModelFile(fixture: CoreDataCorpus.Fixture) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let source = try fixture.copyStore(into: folder.file("source"))
        let before = try folderBytes(folder.file("source"))
        let target = folder.file("imported.sqlite")

        let result = try Store.importCoreData(from: source, models: .store, into: target, version: nil, progress: nil)

        let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        #expect(result.modelOrigin == .store && result.modelName == name && result.versionName == name)
        #expect(try folderBytes(folder.file("source")) == before, "the import wrote in the source's folder")
        #expect(try folder.contents().sorted() == ["imported.sqlite", "source"])
        let bundle = try ModelBundle(
            contentsOf: try {
                let path = folder.file("\(name).xcdatamodeld")
                _ = try Store.extractCoreDataModel(from: source, to: path)
                return path
            }())
        let reference = try CoreDataReference(copyOf: fixture, in: folder)
        let store = try SQLiteConnection(path: target, mode: .readOnly)
        try CoreDataCorpusTests.checkObjects(
            reference: reference, store: store, version: bundle.currentVersion, counts: result.objectCounts)
        #expect(try store.scalar("PRAGMA integrity_check") == .text("ok"))
        let inspection = try StoreInspector.inspect(path: target, bundle: bundle)
        #expect(inspection.state == .current(version: name), "\(inspection.message)")
        // The app's own bundle adopts it by its entity hashes, at the version the store was matched to.
        let app = try ModelBundle(contentsOf: fixture.bundlePath)
        let adopted = try StoreInspector.inspect(path: target, bundle: app)
        #expect(adopted.adoptedModelName == name, "\(adopted.message)")
        switch adopted.state {
        case .current(let version), .older(let version, _), .newer(let version):
            #expect(version == fixture.version, "\(adopted.message)")
        default:
            Issue.record("not adopted: \(adopted.message)")
        }
    }
}

/// The differences between two versions of a model, in what a store and its migrations depend on:
/// entities with their parents and abstractness, attributes with type, optionality, transience and
/// default, relationships with destination, inverse, to-many, ordered, delete rule and counts,
/// uniqueness constraints, fetch indexes, renaming identifiers and version hash modifiers.
enum ModelComparison {
    static func differences(_ file: ModelVersion, _ store: ModelVersion) -> [String] {
        var result: [String] = []
        let names = Set(file.entities.map(\.name)).union(store.entities.map(\.name))
        for name in names.sorted() {
            guard let a = file.entity(named: name), let b = store.entity(named: name) else {
                result.append("\(name): only in the \(file.entity(named: name) == nil ? "store" : "file")")
                continue
            }
            if a.parentName != b.parentName || a.isAbstract != b.isAbstract || a.elementID != b.elementID
                || a.versionHashModifier != b.versionHashModifier
            {
                result.append("\(name): entity differs")
            }
            if Set(a.uniquenessConstraints.map(\.properties)) != Set(b.uniquenessConstraints.map(\.properties)) {
                result.append("\(name): uniqueness constraints differ")
            }
            if Set(a.fetchIndexes.map { "\($0.name)\($0.elements.map(\.property))" })
                != Set(b.fetchIndexes.map { "\($0.name)\($0.elements.map(\.property))" })
            {
                result.append("\(name): fetch indexes differ")
            }
            let attributes = Set(a.attributes.map(\.name)).union(b.attributes.map(\.name))
            for attribute in attributes.sorted() {
                guard let x = a.attribute(named: attribute), let y = b.attribute(named: attribute) else {
                    result.append("\(name).\(attribute): only in one")
                    continue
                }
                if x.type != y.type || x.isOptional != y.isOptional || x.isTransient != y.isTransient
                    || x.elementID != y.elementID || x.versionHashModifier != y.versionHashModifier
                    || x.isIndexed != y.isIndexed
                {
                    result.append("\(name).\(attribute): differs")
                }
                if !sameValue(x.defaultValue, y.defaultValue) {
                    result.append(
                        "\(name).\(attribute): default \(x.defaultValue ?? "none") in the file, \(y.defaultValue ?? "none") in the store"
                    )
                }
            }
            let relationships = Set(a.relationships.map(\.name)).union(b.relationships.map(\.name))
            for relationship in relationships.sorted() {
                guard let x = a.relationship(named: relationship), let y = b.relationship(named: relationship) else {
                    result.append("\(name).\(relationship): only in one")
                    continue
                }
                if x.destinationEntity != y.destinationEntity || x.inverseName != y.inverseName
                    || x.isToMany != y.isToMany || x.isOrdered != y.isOrdered || x.isOptional != y.isOptional
                    || (x.deletionRule ?? .nullify) != (y.deletionRule ?? .nullify)
                    || (x.minCount ?? 0) != (y.minCount ?? 0)
                    || (x.isToMany ? (x.maxCount ?? 0) : 1) != (y.isToMany ? (y.maxCount ?? 0) : 1)
                    || x.elementID != y.elementID || x.versionHashModifier != y.versionHashModifier
                {
                    result.append("\(name).\(relationship): differs")
                }
            }
        }
        return result
    }

    /// Two defaults as Core Data reads them: `0.0` and `0` are one number, `NO` and `0` one Boolean.
    static func sameValue(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == b }
        let words = ["YES": "1", "NO": "0", "true": "1", "false": "0"]
        let left = words[a] ?? a
        let right = words[b] ?? b
        if let x = Double(left), let y = Double(right) { return x == y }
        return left == right
    }
}
