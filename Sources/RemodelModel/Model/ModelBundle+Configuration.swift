extension ModelBundle {
    /// The bundle as a store of one configuration sees it: every version holds that configuration's entities
    /// only (``ModelVersion/restricted(toConfiguration:)``), read on first use as the bundle's own versions are.
    /// Core Data apps split their entities across stores this way ("Cloud" and "Local", say); a store created
    /// from the restricted bundle records its configuration, and every command and `Store.launch(at:bundle:seed:options:progress:)`
    /// restrict the bundle to it by themselves.
    ///
    /// For example:
    /// ```swift
    /// let cloud = try bundle.restricted(toConfiguration: "Cloud")
    /// let (store, _) = try await Store.launch(at: "cloud.sqlite", bundle: cloud)
    /// ```
    /// A migration maps the configuration's entities in each version: an entity the configuration gains is
    /// created empty, one it loses is dropped (a data loss, named as every other). Every version a store of the
    /// configuration passes through must have the configuration. Xcode's `Default` configuration
    /// (``Configuration/defaultName``) holds every entity: when the current version declares no configuration of
    /// that name, the bundle restricted to `Default` is the bundle itself (its stores record no configuration).
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/invalidModel`` when the current version has no such
    ///   configuration (naming those it has), when it cannot be a store of its own (see
    ///   ``ModelVersion/restricted(toConfiguration:)``), or when the bundle already holds another configuration.
    public func restricted(toConfiguration name: String) throws(RemodelError) -> ModelBundle {
        if configurationName == name { return self }
        guard configurationName == nil else {
            throw RemodelError(
                .invalidModel,
                "model \"\(self.name)\" is already restricted to configuration \"\(configurationName ?? "")\"; it cannot hold configuration \"\(name)\"",
                path: path)
        }
        if try loadVersion(named: currentVersionName).restricted(toConfiguration: name).configurationName == nil {
            return self
        }
        let whole = self
        var bundle = ModelBundle(
            name: self.name, path: path, versionNames: versionNames, currentVersionName: declaredCurrentVersionName,
            formerVersionNames: formerVersionNames
        ) { versionName in
            do throws(RemodelError) {
                return .success(try whole.loadVersion(named: versionName).restricted(toConfiguration: name))
            } catch {
                return .failure(error)
            }
        }
        bundle.configurationName = name
        return bundle
    }

    /// The bundle restricted to `name`, or the bundle itself when `name` is `nil` (a store of every entity).
    package func restricted(toConfiguration name: String?) throws(RemodelError) -> ModelBundle {
        guard let name else { return self }
        return try restricted(toConfiguration: name)
    }
}
