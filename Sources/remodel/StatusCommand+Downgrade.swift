import ArgumentParser
import Foundation
import Remodel

extension StatusCommand {
    /// One line saying whether the store carries its model.
    static func carriedModelLine(store: String) -> String {
        guard let carried = try? StoreInspector.carriedModel(path: store) else {
            return "It carries no model yet (made before Remodel recorded one): its next migration records it."
        }
        return
            "It carries its model (version \(carried.versionName), \(ProgressPrinter.grouped(carried.contents.utf8.count)) bytes of contents XML; `remodel export --carried-model` prints it)."
    }

    /// For a store newer than the bundle: what it is, from the model it carries, and what a lossless
    /// downgrade would do or why it cannot.
    func printDowngrade(bundle: ModelBundle) {
        let current = bundle.currentVersionName
        let carried = (try? StoreInspector.carriedModel(path: options.store)) ?? nil
        if let carried {
            print("It carries its model: version \(carried.versionName), newer than this build's \(current).")
        }
        var downgrade = MigrationOptions(mappingsDirectory: mappings ?? defaultMappingsDirectory())
        downgrade.downgrade = .lossless
        let migrator = Migrator(bundle: bundle, options: downgrade)
        do {
            let plan = try migrator.plan(storeAt: options.store)
            print(
                "A lossless downgrade (`remodel migrate --downgrade lossless`) would migrate it down to \(plan.targetVersion), losing no stored value. The plan:"
            )
            print(plan.description, terminator: "")
            print(migrator.passSummary(of: plan))
        } catch  where error.code == .downgradeLosesData {
            print("A lossless downgrade cannot: \(error.message)")
        } catch {
            print("It cannot be migrated down: \(error.message)")
        }
    }
}
