/// Plans the migration of a store down to the bundle's current version (or ``MigrationOptions/targetVersion``):
/// one step whose source is the model the store carries, for a store newer than the bundle (a rolled-back build),
/// or the bundle's own version, for a store at a version after the target (`migrate --to` an older version).
///
/// The mapping comes from the same engine as any step's: a mapping file (or Xcode mapping model) for
/// the pair from the store's version to the target, merged over inference, else inference alone, with
/// renaming identifiers read backwards (``DowngradeRenaming``). The first step's problems are screened
/// against the store, and what the step drops is counted on it: a ``DowngradePolicy/lossless``
/// downgrade that would lose a stored value is refused here, before anything is written.
struct DowngradePlanner {
    let bundle: ModelBundle
    let options: MigrationOptions

    /// The plan for the store on `store` (read through that connection: the caller may hold it locked).
    /// - Parameter path: The store, named in errors.
    func plan(store: SQLiteConnection, path: String) throws(RemodelError) -> MigrationPlan {
        guard case .success(let metadata) = try StoreMetadata.read(from: store) else {
            throw RemodelError(
                .notAStore, "the store's metadata cannot be read, so it cannot be migrated down", path: path)
        }
        let target = try bundle.requireVersion(
            named: options.targetVersion ?? bundle.currentVersionName, code: .migrationNotPlannable)
        try bundle.requireNoErrors(inVersions: [target.name])
        let source = try sourceVersion(metadata, store: store, path: path, target: target.name).restricted(
            toConfiguration: metadata.configuration)
        let destination = DowngradeRenaming.older(target, readFrom: source)
        var plan = MigrationPlan(
            modelName: bundle.name, sourceVersion: source.name, targetVersion: target.name,
            steps: [
                MigrationStep(
                    source: source, destination: destination, mapping: try mapping(from: source, to: destination))
            ])
        plan.isDowngrade = true
        plan.isDowngradeWithinBundle = bundle.index(ofVersion: source.name) != nil
        plan.steps[0].mapping = try ProblemScreen(connection: store, tables: TableReferences(schema: "main")).screen(
            plan.steps[0].mapping, source: source)
        try MigrationPlanner.refuseProblems(of: plan, bundle: bundle, screened: true)
        let checked = try MappingChecker.check(plan)
        try options.checkClassPolicies(plan)
        let policies = Set(options.forStep(plan.steps[0]).policies.map(\.destination))
        plan.stepPlans = StepPlan.chain(plan.steps) { _ in policies }
        for (index, expressions) in checked.enumerated() { plan.stepPlans[index].carry(expressions) }
        (plan.rehearsals, plan.carried) = try PlanRehearsal.run(plan.stepPlans, on: store)
        let layout = plan.stepPlans[0].sourceLayout
        let tables = TableReferences.destination
        for loss in plan.stepPlans[0].losses {
            plan.losses.append(try loss.counted(on: store, layout: layout, tables: tables))
        }
        for loss in Self.lostOrders(plan.steps[0]) {
            var counted = try loss.counted(on: store, layout: layout, tables: tables)
            counted.property = loss.property.map { "\($0) (its order)" }
            plan.losses.append(counted)
        }
        plan.losses += try NilValueCount.counted(
            plan.stepPlans[0], on: store, tables: tables, environment: ExpressionEnvironment())
        if options.downgrade == .lossless { try Self.refuseLosses(plan, path: path) }
        return plan
    }

    /// The store's version as a model: the bundle's version of that name when it has one with the entity hashes
    /// the store records, else the one the store carries, checked against those hashes.
    private func sourceVersion(_ metadata: StoreMetadata, store: SQLiteConnection, path: String, target: String)
        throws(RemodelError) -> ModelVersion
    {
        let newer = "the store is at version \"\(metadata.versionName)\", newer than this build's \"\(target)\""
        guard metadata.formatVersion <= StoreMetadata.currentFormatVersion else {
            throw RemodelError(
                .newerStore,
                "\(newer), in layout format \(metadata.formatVersion) (this build knows format \(StoreMetadata.currentFormatVersion)), so it cannot be migrated down and was left untouched; open it with the newer build",
                path: path)
        }
        // A version the bundle has (a `--to` an older version, or a store after the bundle's current version).
        if let known = bundle.versionName(recordedAs: metadata.versionName).flatMap(bundle.version(named:)),
            known.entityHashes == metadata.entityHashes
        {
            return known
        }
        let version: ModelVersion
        if let carried = try StoreInspector.carriedModel(metadata, on: store) {
            version = try carried.version(storePath: path)
        } else if let known = bundle.versionName(recordedAs: metadata.versionName).flatMap(bundle.version(named:)) {
            version = known
        } else {
            throw RemodelError(
                .newerStore,
                "\(newer), and it carries no model (it was written before Remodel recorded one, or from a model made in memory), so it cannot be migrated down and was left untouched; open it with the newer build",
                path: path)
        }
        guard version.entityHashes == metadata.entityHashes else {
            throw RemodelError(
                .newerStore,
                "\(newer), and the model it carries does not match the entity hashes it records, so it cannot be trusted to migrate the store down; the store was left untouched: open it with the newer build",
                path: path)
        }
        return version
    }

    /// The mapping from the store's version to the target: a mapping file's for that pair when there
    /// is one (found among the bundle's own, with the store's version put first in the order, so that a
    /// file or Xcode mapping model from it forward is read as any step's), else inference.
    private func mapping(from source: ModelVersion, to destination: ModelVersion) throws(RemodelError) -> MappingModel {
        if options.mappingsDirectory != nil {
            // The store's version first, so that a file from it to the target reads forward.
            let versions =
                [source]
                + bundle.versionNames.filter { $0 != source.name }.compactMap { name in
                    name == destination.name ? destination : bundle.version(named: name)
                }
            let extended = ModelBundle(
                name: bundle.name, path: bundle.path, versions: versions, currentVersionName: destination.name,
                formerVersionNames: bundle.formerVersionNames.filter { $0.key != source.name })
            let catalog = MappingCatalog(directory: options.mappingsDirectory, bundle: extended)
            let pair = MappingCatalog.VersionPair(source: source.name, destination: destination.name)
            // The folder may hold files for versions this older build lacks (the newer build's upward steps):
            // only the downward pair's files, and files too broken to tell their pair, can stop a downgrade.
            let otherPairs = Set(
                catalog.files.filter { path in
                    if XcodeMappingLoader.isXcodeMapping(path) {
                        return catalog.mappings[pair]?.files.contains(path) != true
                    }
                    guard let file = MappingFileReader.read(path: path).0 else { return false }
                    return file.sourceVersion != source.name || file.destinationVersion != destination.name
                })
            let errors = catalog.diagnostics.filter {
                $0.severity == .error && !otherPairs.contains($0.location?.file ?? "")
            }
            if let error = errors.first {
                let more = errors.count > 1 ? " (and \(errors.count - 1) more; run `remodel validate`)" : ""
                throw RemodelError(.invalidMapping, error.message + more, location: error.location)
            }
            if let mapping = catalog.mappings[pair] { return mapping }
        }
        return MappingInference.infer(from: source, to: destination, modelName: bundle.name)
    }

    /// The ordered to-many relationships the step carries into relationships that are not ordered: their
    /// links arrive, their order does not (counted as the links that had one).
    static func lostOrders(_ step: MigrationStep) -> [DataLoss] {
        var losses: [DataLoss] = []
        for mapping in step.mapping.entities {
            guard let sourceName = mapping.source, let source = step.source.entity(named: sourceName),
                !source.isAbstract,
                let destinationName = mapping.destination,
                let destination = step.destination.entity(named: destinationName)
            else { continue }
            for relationship in mapping.relationships {
                guard let from = relationship.source, let before = step.source.relationship(named: from, in: source),
                    before.isToMany, before.isOrdered,
                    let after = step.destination.relationship(named: relationship.destination, in: destination),
                    !after.isOrdered
                else { continue }
                losses.append(
                    DataLoss(
                        sourceVersion: step.source.name, destinationVersion: step.destination.name, entity: sourceName,
                        property: from))
            }
        }
        return losses
    }

    /// Throws ``RemodelModel/RemodelError/Code/downgradeLosesData`` naming every value the plan's step would drop.
    static func refuseLosses(_ plan: MigrationPlan, path: String) throws(RemodelError) {
        let lost = plan.losses.filter { $0.count != 0 }
        guard let first = lost.first else { return }
        let lines = lost.map { "  - \($0.detail)" }.joined(separator: "\n")
        let place = "that \"\(plan.targetVersion)\" has no place for"
        let why = lost.contains(where: \.becameNil) ? "(\(place), or that a conversion turns into nil)" : place
        let (whence, otherwise) =
            plan.isDowngradeWithinBundle
            ? ("which comes after \"\(plan.targetVersion)\" in the version order", "")
            : ("newer than this build's \"\(plan.targetVersion)\"", ", or open it with the newer build")
        var error = RemodelError(
            .downgradeLosesData,
            "the store is at version \"\(plan.sourceVersion)\", \(whence), and migrating it down would lose stored values \(why), so it was left untouched:\n\(lines)\nMigrate it with `--downgrade allow-loss` to drop them (the original is kept as the backup)\(otherwise).",
            path: path)
        error.entity = first.entity
        error.property = first.property
        throw error
    }
}
