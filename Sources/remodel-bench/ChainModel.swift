import Foundation
import Remodel

/// The models of the chain scenarios, each migrated from its first version to its current one and, as
/// the yardstick, over its last step alone on a store of the same number of objects.
enum ChainModel: String, CaseIterable {
    /// ``HistoryBundle``: 96 generated versions, written in the run's temporary folder.
    case history = "BenchHistory"
    /// Wire's `zmessaging` model from the shared corpus (44 versions, 43 steps), when the corpus is there.
    case wire = "zmessaging"

    /// The wire bundle, found as the tests find the corpus: `<package>/../shared/corpus`.
    static var wireBundlePath: String {
        URL(
            fileURLWithPath: BenchModel.repository
                + "/../shared/corpus/wireapp__wire-ios-data-model/zmessaging.xcdatamodeld"
        ).standardized.path
    }

    /// Where the bundle is for a run whose temporary folder is `folder`.
    func bundlePath(in folder: String) -> String {
        switch self {
        case .history: HistoryBundle.path(in: folder)
        case .wire: Self.wireBundlePath
        }
    }

    /// Why the model cannot be measured, or nil when it can.
    var unavailable: String? {
        switch self {
        case .history: nil
        case .wire:
            FileManager.default.fileExists(atPath: Self.wireBundlePath)
                ? nil : "skipped: no corpus at \(Self.wireBundlePath)"
        }
    }

    /// The version a scenario's source store is at: the first version, or the one before the current
    /// for the one-step yardstick.
    static func sourceVersion(of bundle: ModelBundle, lastStep: Bool) throws -> String {
        guard let current = bundle.index(ofVersion: bundle.currentVersionName), current >= 1 else {
            throw BenchError("\(bundle.name) has no step to its current version")
        }
        return lastStep ? bundle.versionNames[current - 1] : bundle.versionNames[0]
    }
}
