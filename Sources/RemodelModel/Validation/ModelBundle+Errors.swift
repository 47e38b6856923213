extension ModelBundle {
    /// Refuses a model that `remodel validate` rejects, before anything opens a store with it: every command
    /// and API that reads a model (create, migrate and its dry run, launch, status, seed, import, export, diff)
    /// calls this with the versions it reads, and nothing else. Only those versions are checked (a launch of a
    /// current store, the current version alone), each once per bundle read.
    ///
    /// For example:
    /// ```swift
    /// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
    /// try bundle.requireNoErrors(inVersions: [bundle.currentVersionName])
    /// ```
    /// - Parameter names: The versions the operation reads.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/invalidModel``, naming the bundle, whose
    ///   ``RemodelError/diagnostics`` are every error of those versions, as `remodel validate` prints them
    ///   (`path:line:column: error: message [rule]`); the reading errors of a version (malformed XML) as
    ///   ``loadVersion(named:)`` throws them.
    public func requireNoErrors(inVersions names: some Sequence<String>) throws(RemodelError) {
        var errors: [Diagnostic] = []
        var faulty: [String] = []
        // Versions of one bundle share most entities: each is checked whole once, then passed by where its text and
        // its ancestors' are the same (the rules that read other entities run on every version).
        var clean = ModelValidator.CleanEntities()
        for name in names {
            let version = try loadVersion(named: name)
            let found = checked(name) { ModelValidator.errors(in: version, clean: &clean) }
            if !found.isEmpty { faulty.append(name) }
            errors += found
        }
        guard !errors.isEmpty else { return }
        let count = errors.count == 1 ? "an error" : "\(errors.count) errors"
        let versions = faulty.map { "\"\($0)\"" }.joined(separator: ", ")
        var error = RemodelError(
            .invalidModel,
            "model \"\(name)\" has \(count) in version\(faulty.count == 1 ? "" : "s") \(versions), which `remodel validate` reports; Remodel does not use a model with errors, so no store was opened or changed: fix the model, then try again",
            path: path)
        error.diagnostics = errors
        throw error
    }
}
