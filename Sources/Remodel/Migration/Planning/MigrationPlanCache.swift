import Foundation

/// Plans shared by the stores a migrator migrates: the mapping files are read
/// once, and each distinct source version is planned and type-checked once.
///
/// What depends on one store's data stays per store: the first step's
/// problems are screened against that store (see `ProblemScreen`) every time.
/// The order of the checks, and so the error a store gets, is the one
/// `MigrationPlanner.plan` gives: mapping files, versions, problems, then
/// the type check of every expression.
package final class MigrationPlanCache: @unchecked Sendable {
    /// A source version's plan before any store is looked at, and the type checker's verdict on it.
    private struct Prepared {
        var draft: MigrationPlan
        var checkFailure: RemodelError?
    }

    private let bundle: ModelBundle
    private let mappingsDirectory: String?
    private let targetVersion: String?
    private let options: MigrationOptions
    private let lock = NSLock()
    private var catalog: MappingCatalog?
    private var prepared: [String: Result<Prepared, RemodelError>] = [:]
    /// How many times the mapping folder was read (tests).
    private(set) var catalogReads = 0

    /// The configuration of the bundle it plans along (``/RemodelModel/ModelBundle/configurationName``).
    var configurationName: String? { bundle.configurationName }

    package init(bundle: ModelBundle, options: MigrationOptions) {
        self.bundle = bundle
        self.mappingsDirectory = options.mappingsDirectory
        self.targetVersion = options.targetVersion
        self.options = options
    }

    /// The source versions planned so far (tests).
    var plannedVersions: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return Set(prepared.keys)
    }

    /// The versions a plan from `version` to the target reads, in order (the one named, when the order
    /// does not lead there: the planner then says why).
    private func versionsWalked(from version: String) -> [String] {
        let names = bundle.versionNames
        guard let start = bundle.index(ofVersion: version),
            let end = bundle.index(ofVersion: targetVersion ?? bundle.currentVersionName), start <= end
        else { return names.contains(version) ? [version] : [] }
        return Array(names[start...end])
    }

    /// The plan for a store at `version`; `screen` drops the first step's problems that cannot bite that store
    /// (nil: a plan for no store in particular, every problem refused).
    func plan(
        from version: String, screen: ((StepPlan) throws(RemodelError) -> MappingModel)?
    ) throws(RemodelError) -> MigrationPlan {
        let prepared = try self.prepared(from: version)
        var plan = prepared.draft
        if let screen, let first = plan.stepPlans.first {
            let screened = first.screened(try screen(first))
            plan.stepPlans[0] = screened
            plan.steps[0] = screened.step
        }
        try MigrationPlanner.refuseProblems(of: plan, bundle: bundle, screened: screen != nil)
        if let failure = prepared.checkFailure { throw failure }
        return plan
    }

    private func prepared(from version: String) throws(RemodelError) -> Prepared {
        lock.lock()
        defer { lock.unlock() }
        if let known = prepared[version] { return try known.get() }
        let catalog = self.catalog ?? MappingCatalog(directory: mappingsDirectory, bundle: bundle)
        if self.catalog == nil {
            self.catalog = catalog
            catalogReads += 1
        }
        let result = Result { () throws(RemodelError) -> Prepared in
            // A model with errors is never used: the versions this plan walks are checked first.
            try bundle.requireNoErrors(inVersions: versionsWalked(from: version))
            var draft = try MigrationPlanner.draft(bundle: bundle, from: version, to: targetVersion, catalog: catalog)
            let options = self.options
            draft.stepPlans = StepPlan.chain(draft.steps) { step in
                Set(options.forStep(step).policies.map(\.destination))
            }
            do throws(RemodelError) {
                // Every expression is checked once, here; the plan carries what checked to phase 1.
                let checked = try MappingChecker.check(draft)
                for (index, expressions) in checked.enumerated() { draft.stepPlans[index].carry(expressions) }
                return Prepared(draft: draft, checkFailure: nil)
            } catch {
                return Prepared(draft: draft, checkFailure: error)
            }
        }
        prepared[version] = result
        return try result.get()
    }
}
