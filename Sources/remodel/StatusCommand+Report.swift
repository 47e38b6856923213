import Foundation
import Remodel

/// What `remodel status` finds about a store, printed as text or JSON.
struct StoreStatus {
    /// What a lossless downgrade of a newer store would do.
    enum Downgrade {
        case possible(MigrationPlan, passes: [ClosedRange<Int>], summary: String)
        case losesData(String)
        case impossible(String)
    }

    let inspection: StoreInspection
    let bundle: ModelBundle
    /// The model the store carries (not read for a missing store).
    private(set) var carried: CarriedModel?
    /// For an older store, the plan `remodel migrate` would run, how it runs, and that in words.
    private(set) var plan: (plan: MigrationPlan, passes: [ClosedRange<Int>], summary: String)?
    /// Why an older store cannot be migrated yet.
    private(set) var failure: RemodelError?
    /// For a store newer than the model.
    private(set) var downgrade: Downgrade?

    static let failurePrefix = "the store cannot be migrated yet: "

    init(inspection: StoreInspection, bundle: ModelBundle, mappings: String?) {
        self.inspection = inspection
        self.bundle = bundle
        if case .missing = inspection.state {
        } else {
            carried = (try? StoreInspector.carriedModel(path: inspection.path)) ?? nil
        }
        switch inspection.state {
        case .older:
            let migrator = Migrator(bundle: bundle, options: MigrationOptions(mappingsDirectory: mappings))
            do {
                let plan = try migrator.plan(storeAt: inspection.path)
                self.plan = (plan, migrator.passes(of: plan), migrator.passSummary(of: plan))
            } catch {
                failure = error
            }
        case .newer where !inspection.isAfterCurrentVersion:
            var options = MigrationOptions(mappingsDirectory: mappings)
            options.downgrade = .lossless
            let migrator = Migrator(bundle: bundle, options: options)
            do {
                let plan = try migrator.plan(storeAt: inspection.path)
                downgrade = .possible(plan, passes: migrator.passes(of: plan), summary: migrator.passSummary(of: plan))
            } catch  where error.code == .downgradeLosesData {
                downgrade = .losesData(error.message)
            } catch {
                downgrade = .impossible(error.message)
            }
        default:
            break
        }
    }

    /// Whether the store is refused (exit status 1): newer than the model, or not a store of it.
    var isRefused: Bool {
        switch inspection.state {
        case .missing, .current, .older: return false
        case .newer: return !inspection.isAfterCurrentVersion
        default: return true
        }
    }

    /// What comes next: `create`, `nothing`, `migrate`, or nil for a store refused.
    var next: String? {
        switch inspection.state {
        case .missing: return "create"
        case .current: return "nothing"
        case .older: return failure == nil ? "migrate" : nil
        default: return nil
        }
    }

    /// The text: the inspection's sentence (on standard error for a refused store), what the store carries, and
    /// the next step with its plan.
    func printText() {
        if isRefused { printError(inspection.message) } else { print(inspection.message) }
        if case .newer = inspection.state, isRefused {
            if let carried {
                print(
                    "It carries its model: version \(carried.versionName), newer than this build's \(bundle.currentVersionName)."
                )
            }
            switch downgrade {
            case .possible(let plan, _, let summary):
                print(
                    "A lossless downgrade (`remodel migrate --downgrade lossless`) would migrate it down to \(plan.targetVersion), losing no stored value. The plan:"
                )
                print(plan.description, terminator: "")
                print(summary)
            case .losesData(let message): print("A lossless downgrade cannot: \(message)")
            case .impossible(let message): print("It cannot be migrated down: \(message)")
            case nil: break
            }
            return
        }
        if !isRefused, inspection.state != .missing { print(carriedModelLine) }
        switch next {
        case "create": print("Next: create")
        case "nothing": print("Next: nothing to do")
        case "migrate":
            guard let plan else { break }
            print("Next: migrate. The plan:")
            print(plan.plan.description, terminator: "")
            if !plan.plan.steps.isEmpty { print(plan.summary) }
        default: break
        }
    }

    /// One line saying whether the store carries its model.
    private var carriedModelLine: String {
        guard let carried else {
            return "It carries no model yet (made before Remodel recorded one): its next migration records it."
        }
        return
            "It carries its model (version \(carried.versionName), \(ProgressPrinter.grouped(carried.contents.utf8.count)) bytes of contents XML; `remodel export --carried-model` prints it)."
    }

    /// The JSON object (docs/JSON.md, "remodel status").
    var json: JSONDocument {
        let downgradeJSON: JSONDocument
        switch downgrade {
        case .possible(let plan, let passes, _):
            downgradeJSON = .object([("lossless", .bool(true)), ("plan", plan.json(passes: passes)), ("reason", .null)])
        case .losesData(let message), .impossible(let message):
            downgradeJSON = .object([("lossless", .bool(false)), ("plan", .null), ("reason", .string(message))])
        case nil:
            downgradeJSON = .null
        }
        return .object([
            ("store", .string(inspection.path)),
            ("model", .string(bundle.name)),
            ("currentVersion", .string(bundle.currentVersionName)),
            ("state", .string(inspection.state.name)),
            ("version", inspection.state.versionName.map(JSONDocument.string) ?? .null),
            ("configuration", inspection.configuration.map(JSONDocument.string) ?? .null),
            ("message", .string(inspection.message)),
            (
                "carriedModel",
                carried.map {
                    .object([
                        ("version", .string($0.versionName)), ("bytes", .int($0.contents.utf8.count)),
                        ("formatVersion", .int($0.formatVersion)),
                    ])
                } ?? .null
            ),
            ("next", next.map(JSONDocument.string) ?? .null),
            ("plan", plan.map { $0.plan.json(passes: $0.passes) } ?? .null),
            ("downgrade", downgradeJSON),
            ("error", failure.map { .string(Self.failurePrefix + $0.description) } ?? .null),
        ])
    }
}

extension StoreInspection.State {
    /// The state's name in JSON: `missing`, `current`, `older`, `newer`, `modifiedVersion`, `otherModel`,
    /// `schemaDrift`, `newerFormat`, `notRemodelStore`, `notSQLite`.
    var name: String {
        switch self {
        case .missing: "missing"
        case .current: "current"
        case .older: "older"
        case .newer: "newer"
        case .modifiedVersion: "modifiedVersion"
        case .otherModel: "otherModel"
        case .schemaDrift: "schemaDrift"
        case .newerFormat: "newerFormat"
        case .notRemodelStore: "notRemodelStore"
        case .notSQLite: "notSQLite"
        }
    }

    /// The version the store records, where the state names one.
    var versionName: String? {
        switch self {
        case .current(let version), .older(let version, _), .newer(let version), .modifiedVersion(let version),
            .schemaDrift(let version, _):
            version
        default: nil
        }
    }
}
