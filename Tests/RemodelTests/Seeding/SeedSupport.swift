import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelTesting

/// Generates data for a version, creates a store from it, and exports the store again.
enum SeedSupport {
    struct RoundTrip {
        var generated: String
        var exported: String
        var plan: SeedPlan
    }

    /// Writes the seed, creates a store at `version` from it (which runs every import check), exports it.
    static func roundTrip(_ bundle: ModelBundle, version: String, objects: Int, seedNumber: UInt64 = 1) throws
        -> RoundTrip
    {
        let folder = try TemporaryFolder()
        let seed = folder.file("seed.json")
        let generator = try SeedGenerator(bundle: bundle, version: version)
        let plan = try generator.write(objects: objects, seedNumber: seedNumber, to: seed)
        let store = try Store.create(at: folder.file("store.sqlite"), bundle: bundle, version: version, seed: seed)
        return RoundTrip(
            generated: try String(contentsOfFile: seed, encoding: .utf8), exported: try store.exportJSONString(),
            plan: plan)
    }

    /// The objects of an entity in a generated file, as Foundation reads them.
    static func objects(_ json: String, _ entity: String) throws -> [[String: Any]] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(root[entity] as? [[String: Any]], "no \(entity) in the file")
    }

    /// A one-version bundle from entity elements.
    static func bundle(_ entities: String) throws -> ModelBundle {
        makeBundle("Test", try makeVersion("Test", entities))
    }
}
