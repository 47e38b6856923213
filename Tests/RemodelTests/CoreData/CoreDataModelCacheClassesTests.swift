import Foundation
import Testing

@testable import Remodel
@testable import RemodelCoreData
@testable import RemodelModel

/// Every class Core Data archives in a compiled model is read, or named as a class Remodel does not read;
/// "damaged" is said only of bytes that cannot be read (docs/CORE-DATA-STORES.md, "The store's own model").
struct CoreDataModelCacheClassesTests {
    /// The zoo's model as the store would carry it, with `extras`.
    static func zooCache(_ extras: ModelCacheWriter.Extras, in folder: TemporaryFolder) throws -> (
        ModelVersion, [UInt8]
    ) {
        let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.file("bundle"))
        let version = try bundle.loadVersion(named: "Zoo 1")
        return (version, ModelCacheWriter.cache(of: version, extras: extras))
    }

    /// A zoo store carrying `cache` as its compiled model.
    static func zooStore(carrying cache: [UInt8], in folder: TemporaryFolder) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("source/Zoo.sqlite"))
        let connection = try SQLiteConnection(path: source, mode: .readWrite)
        try connection.run("UPDATE Z_MODELCACHE SET Z_CONTENT = ?", [.blob(Data(cache))])
        return source
    }

    /// Framework 640–641 archives a sub-entity's inherited properties as `_NSPropertyDescriptionProxy`
    /// (wire's stores): read through `NSUnderlyingProperty`, the model is the one archived without them,
    /// and the store imports without its model file.
    @Test func readsInheritedPropertiesArchivedAsProxies() throws {
        let folder = try TemporaryFolder()
        var extras = ModelCacheWriter.Extras()
        extras.proxiesForInherited = true
        let (version, cache) = try Self.zooCache(extras, in: folder)
        #expect(
            String(decoding: try RawDeflate.inflate(cache, limit: 1 << 20), as: UTF8.self).contains(
                "_NSPropertyDescriptionProxy"))

        let model = try CompiledModel(compressed: cache)

        #expect(model == (try CompiledModel(compressed: ModelCacheWriter.cache(of: version))))
        let source = try Self.zooStore(carrying: cache, in: folder)
        let result = try Store.importCoreData(
            from: source, models: .store, into: folder.file("out.sqlite"), version: nil, progress: nil)
        #expect(result.objectCounts["Cat"] == 2 && result.objectCounts["Dog"] == 2)
    }

    /// Derived attributes (their expression read as text), fetched properties and fetch request templates
    /// are read; none is taken for damage.
    @Test func readsDerivedAttributesFetchedPropertiesAndFetchRequests() throws {
        let folder = try TemporaryFolder()
        var extras = ModelCacheWriter.Extras()
        extras.derived = [("Keeper", "animalCount", "animals.@count")]
        extras.fetched = [("Keeper", "cats")]
        extras.fetchRequests = ["NamedAnimals", "AllAnimals"]
        let (_, cache) = try Self.zooCache(extras, in: folder)

        let model = try CompiledModel(compressed: cache)

        let keeper = try #require(model.entity(named: "Keeper"))
        let derived = try #require(keeper.attributes.first { $0.name == "animalCount" })
        #expect(derived.derivationExpression == "animals.@count")
        #expect(derived.type == .integer32)
        #expect(
            !keeper.attributes.contains { $0.name == "cats" } && !keeper.relationships.contains { $0.name == "cats" })
        #expect(model.fetchRequestNames == ["AllAnimals", "NamedAnimals"])
        #expect(model.unread.isEmpty)
    }

    /// A property of a class Remodel does not read is named, by class, and never called damage.
    @Test func namesAClassItDoesNotReadWithoutCallingItDamage() throws {
        let folder = try TemporaryFolder()
        var extras = ModelCacheWriter.Extras()
        extras.unknown = ("Keeper", "badge", "NSFancyPropertyDescription")
        let (_, cache) = try Self.zooCache(extras, in: folder)
        let source = try Self.zooStore(carrying: cache, in: folder)

        let run = try RemodelProcess.run(["extract-model", source, "-o", folder.file("Out.xcdatamodeld")])

        #expect(run.status == 1)
        #expect(
            run.error
                == "error: \(source): the compiled model in the Core Data store's Z_MODELCACHE holds a class Remodel does not read: entity Keeper's property badge is an NSFancyPropertyDescription, a class Remodel does not read (the bytes are fine); pass the app's model with --model\n"
        )
        #expect(!run.error.contains("damaged"))
    }

    /// A proxy that names no property is damage: bytes that cannot be read.
    @Test func callsAProxyWithoutItsPropertyDamaged() throws {
        let folder = try TemporaryFolder()
        var extras = ModelCacheWriter.Extras()
        extras.proxiesForInherited = true
        let (_, cache) = try Self.zooCache(extras, in: folder)
        var archive = try RawDeflate.inflate(cache, limit: 1 << 20)
        // Rename the key so the proxy has no underlying property (same length: offsets stay right).
        let key = Array("NSUnderlyingProperty".utf8)
        let renamed = Array("NSUnderlyingPropertX".utf8)
        var position = 0
        while let found = archive[position...].firstRange(of: key) {
            archive.replaceSubrange(found, with: renamed)
            position = found.upperBound
        }

        do {
            _ = try CompiledModel(archive: archive)
            Issue.record("a proxy without its property was read")
        } catch {
            #expect(error.unreadClass == nil)
            #expect(error.message.contains("proxy without NSUnderlyingProperty"), "\(error.message)")
        }
    }

    /// A derivation that cannot be read as Remodel's text is kept in `NSExpression`'s format, which names the
    /// class of an operand it does not read: a class name holding a character no model file can hold (U+0001) is
    /// refused naming the attribute, never written into the model's XML, which no reader would read back
    /// (`Fixtures/Reliability/Fuzz/model-cache/derivation-control-character`, found by the fuzzer).
    @Test func refusesADerivationNoModelFileCanHold() throws {
        let folder = try TemporaryFolder()
        var extras = ModelCacheWriter.Extras()
        extras.derived = [("Keeper", "animalCount", "animals.@count")]
        let (_, cache) = try Self.zooCache(extras, in: folder)
        var archive = try RawDeflate.inflate(cache, limit: 1 << 20)
        let name = Array("NSKeyPathSpecifierExpression".utf8)
        let found = try #require(archive.firstRange(of: name))
        archive[found.lowerBound + 6] = 0x01

        let failure = try #require(throws: CompiledModel.Failure.self) { try CompiledModel(archive: archive) }

        #expect(
            failure.message
                == "attribute Keeper.animalCount's derivation holds the character U+1, which no model file can hold")
    }

    /// The fuzz seeds with these classes (`Fixtures/Reliability/Fuzz/model-cache/classes-*`, which
    /// scripts/fuzz.sh starts from and the regression suite replays) are the archives this writer makes.
    @Test func fuzzSeedsHoldEveryClass() throws {
        let folder = try TemporaryFolder()
        let seeds = ValidationSupport.packageRoot.appendingPathComponent(
            "Tests/RemodelTests/Fixtures/Reliability/Fuzz/model-cache")
        for (name, extras) in Self.seedExtras {
            let bundle = try CoreDataStoreBuilder.zooBundle(in: folder.file(name))
            let archive = ModelCacheWriter.archive(of: try bundle.loadVersion(named: "Zoo 1"), extras: extras)
            let path = seeds.appendingPathComponent("classes-\(name)").path
            if ProcessInfo.processInfo.environment["REMODEL_WRITE_FUZZ_SEEDS"] == "1" {
                try Data(archive).write(to: URL(fileURLWithPath: path))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(archive), "\(name)")
        }
    }

    static let seedExtras: [(String, ModelCacheWriter.Extras)] = {
        var proxies = ModelCacheWriter.Extras()
        proxies.proxiesForInherited = true
        var every = proxies
        every.derived = [("Keeper", "animalCount", "animals.@count"), ("Animal", "upper", "name")]
        every.fetched = [("Keeper", "cats"), ("Zone", "open")]
        every.fetchRequests = ["AllAnimals"]
        var unknown = ModelCacheWriter.Extras()
        unknown.unknown = ("Zone", "shape", "NSFancyPropertyDescription")
        return [("proxies", proxies), ("every", every), ("unknown", unknown)]
    }()
}
