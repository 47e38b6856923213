import Foundation
import Remodel
import RemodelTesting

/// A store at any version of any model, filled with valid objects by the library's own seeder
/// (`SeedGenerator`, what `remodel seed` writes): `objects` spread evenly over the version's concrete
/// entities (`objects / concrete entities` each, fewer where the model's rules allow fewer), with every
/// relationship linked as its counts allow. No objects: an empty store of that version.
enum SeededStore {
    /// Creates the store at `path`; returns how many objects it holds.
    static func create(at path: String, bundle: ModelBundle, version: String, objects: Int) throws -> Int {
        try? FileManager.default.removeItem(atPath: path)
        let concrete = try bundle.loadVersion(named: version).entities.filter { !$0.isAbstract }.count
        let each = concrete == 0 ? 0 : objects / concrete
        guard each > 0 else {
            _ = try Store.create(at: path, bundle: bundle, version: version)
            return 0
        }
        let seed = path + ".seed.json"
        defer { try? FileManager.default.removeItem(atPath: seed) }
        let plan = try SeedGenerator(bundle: bundle, version: version).write(objects: each, to: seed)
        _ = try Store.create(at: path, bundle: bundle, version: version, seed: seed)
        return plan.objectCount
    }
}
