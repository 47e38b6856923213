internal import Foundation

/// What ``Store/launch(at:bundle:seed:options:progress:)-(String,_,_,_,_)`` (or ``Store/openOrCreate(at:bundle:)``)
/// found and did.
public enum StoreLaunchOutcome: Sendable, Hashable {
    /// There was no store: it was created at the current version (with the seed data, if given).
    case created
    /// The store was at the current version: it was opened as it was.
    case opened
    /// The store was older (or newer, and ``MigrationOptions/downgrade`` let it go down): it was migrated to
    /// the current version, then opened (``MigrationReport/isDowngrade`` tells a downgrade).
    case migrated(MigrationReport)
    /// The store is older and must be migrated first (``Store/openOrCreate(at:bundle:)``, which does not
    /// migrate): nothing was opened or changed.
    case needsMigration(StoreInspection)
}

extension Store {
    /// Opens an app's store at launch, whatever is there: creates it when missing
    /// (with seed data, like an app's bundled defaults), migrates it when it is
    /// older (reporting progress), opens it when current, and refuses a store
    /// written by a newer app, another model's store or a file that is not a store,
    /// leaving that file untouched. Per-user stores are just separate paths. When several processes launch the
    /// same store at once (an app and its extension), one creates or migrates it and the others wait for that,
    /// then open it (``MigrationProgress/Phase/waiting`` tells `progress`). A model whose current version has
    /// errors that `remodel validate` reports is refused before the store is looked at.
    ///
    /// For example:
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: modelsURL.appendingPathComponent("Library.xcdatamodeld").path)
    /// let (store, outcome) = try await Store.launch(
    ///     at: "\(home)/\(user).sqlite", bundle: bundle, seed: defaultsURL.path,
    ///     options: MigrationOptions(mappingsDirectory: mappingsURL.path)
    /// ) { progress in
    ///     splash.update(progress.fraction)
    /// }
    /// if case .migrated(let report) = outcome { log("migrated from \(report.sourceVersion)") }
    /// ```
    /// - Parameters:
    ///   - path: The store file.
    ///   - bundle: The app's model.
    ///   - seed: A JSON file (the export format) to fill a newly created store with.
    ///   - options: How to migrate an older store (mapping files, backup, validations), and whether to
    ///     migrate a newer one down (``MigrationOptions/downgrade``; by default it is refused).
    ///   - progress: Called with the migration's progress, if there is one.
    /// - Returns: The open store and what was done.
    /// - Throws: ``/RemodelModel/RemodelError`` naming the file and what to do; the file is then unchanged. Its code
    ///   tells the cases apart: ``/RemodelModel/RemodelError/Code/newerStore`` (written by a newer app: ask the user to
    ///   update), ``RemodelModel/RemodelError/Code/downgradeLosesData`` (a lossless downgrade would lose values, see
    ///   ``DowngradePolicy``), ``/RemodelModel/RemodelError/Code/otherModel``,
    ///   ``/RemodelModel/RemodelError/Code/notAStore``, ``/RemodelModel/RemodelError/Code/editedVersion``, or the
    ///   migration's own errors.
    public static func launch(
        at path: String, bundle: ModelBundle, seed: String? = nil, options: MigrationOptions = MigrationOptions(),
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws(RemodelError) -> (Store, StoreLaunchOutcome) {
        let (opened, outcome) = try await prepareLaunch(
            at: path, bundle: bundle, seed: seed, options: options, opensCurrent: true,
            cancellation: CancellationFlag(), observer: progress)
        if let opened { return (opened, outcome) }
        return (try Store.open(at: path, bundle: bundle), outcome)
    }

    /// What a launch does to the file: inspects it once, then creates it, leaves it (opening it from that
    /// inspection when `opensCurrent`) or migrates it, reporting to `observer`. Returns the store it created
    /// or opened; a migrated one is for the caller to open.
    ///
    /// Every road uses the current version: a model with errors is refused before the store is looked at.
    /// Another process may be launching the same store (an app and its extension): one creates or migrates
    /// it, the other finds what it made; looking again settles a store created under this one's feet.
    static func prepareLaunch(
        at path: String, bundle: ModelBundle, seed: String?, options: MigrationOptions, opensCurrent: Bool,
        cancellation: CancellationFlag, observer: @escaping @Sendable (MigrationProgress) -> Void
    ) async throws(RemodelError) -> (opened: Store?, outcome: StoreLaunchOutcome) {
        try bundle.requireNoErrors(inVersions: [bundle.currentVersionName])
        for attempt in 1...3 {
            let inspection: StoreInspection
            do {
                inspection = try StoreInspector.inspect(path: path, bundle: bundle)
            } catch  where error.code == .locked {
                // Another process holds the store in the middle of a migration: the migrator waits for it.
                return try await migrate(
                    at: path, bundle: bundle, options: options, inspected: nil, opens: opensCurrent,
                    cancellation: cancellation, observer: observer)
            }
            switch inspection.state {
            case .missing:
                do {
                    return (try Store.create(at: path, bundle: bundle, seed: seed), .created)
                } catch
                    where error.code == .incompatibleStore && attempt < 3
                    && FileManager.default.fileExists(atPath: path)
                {
                    continue
                }
            case .current:
                return (opensCurrent ? try Store.open(at: path, inspected: inspection, bundle: bundle) : nil, .opened)
            case .older, .newer:
                if case .newer = inspection.state, options.downgrade == .refuse {
                    throw inspection.refusal(or: .newerStore, path: path)
                }
                return try await migrate(
                    at: path, bundle: bundle, options: options, inspected: inspection, opens: opensCurrent,
                    cancellation: cancellation, observer: observer)
            default:
                throw inspection.refusal(or: .incompatibleStore, path: path)
            }
        }
        throw RemodelError(
            .incompatibleStore, "the store kept changing while it was being opened; open it again", path: path)
    }

    /// Migrates the store to the current version: ``StoreLaunchOutcome/opened`` when another process migrated
    /// it meanwhile (the migrator waited for that migration and found the store current; the caller opens it).
    /// `inspected` is what the launch found just before, which stands for the migration's own look before its
    /// lock. When `opens`, the store the migration leaves is opened at the version it reports, without being
    /// inspected again.
    private static func migrate(
        at path: String, bundle: ModelBundle, options: MigrationOptions, inspected: StoreInspection?, opens: Bool,
        cancellation: CancellationFlag, observer: @escaping @Sendable (MigrationProgress) -> Void
    ) async throws(RemodelError) -> (opened: Store?, outcome: StoreLaunchOutcome) {
        var migrationOptions = options
        migrationOptions.targetVersion = nil
        let report = try await Migrator(bundle: bundle, options: migrationOptions).migrate(
            storeAt: path, inspected: inspected, cancellation: cancellation, observer: observer)
        guard report.steps > 0 else { return (nil, .opened) }
        guard opens else { return (nil, .migrated(report)) }
        let version = try bundle.loadVersion(named: report.targetVersion)
        return (try Store.open(at: path, version: version, bundle: bundle), .migrated(report))
    }
}
