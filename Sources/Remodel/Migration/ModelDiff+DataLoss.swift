extension ModelDiff {
    /// Compares two versions of a bundle.
    /// - Throws: ``/RemodelModel/RemodelError`` when a version does not exist, or the versions compared (and those
    ///   between) have errors (``/RemodelModel/ModelBundle/requireNoErrors(inVersions:)``).
    public init(bundle: ModelBundle, from: String, to: String) throws(RemodelError) {
        // An unknown version is named by the comparison, with the bundle's versions.
        if let start = bundle.index(ofVersion: from), let end = bundle.index(ofVersion: to) {
            try bundle.requireNoErrors(inVersions: Array(bundle.versionNames[min(start, end)...max(start, end)]))
        }
        try self.init(comparing: bundle, from: from, to: to)
        let destination = try bundle.requireVersion(named: to, code: .invalidMapping)
        self.lints += Self.droppedOnTheWay(bundle: bundle, from: from, to: to, destination: destination)
    }

    /// What a migration walking every version between `from` and `to` drops that a direct comparison cannot
    /// show: a property a step in between drops, which a later version has again (it arrives empty).
    private static func droppedOnTheWay(bundle: ModelBundle, from: String, to: String, destination: ModelVersion)
        -> [Lint]
    {
        guard let start = bundle.index(ofVersion: from), let end = bundle.index(ofVersion: to), end - start > 1 else {
            return []
        }
        var lints: [Lint] = []
        for index in start..<end {
            guard let source = bundle.version(named: bundle.versionNames[index]),
                let next = bundle.version(named: bundle.versionNames[index + 1])
            else { continue }
            let step = MigrationStep(
                source: source, destination: next,
                mapping: MappingInference.infer(from: source, to: next, modelName: bundle.name))
            for loss in DataLoss.planned(by: step, policies: []) {
                guard let entity = destination.entity(named: loss.entity) else { continue }
                let stillThere =
                    loss.property.map {
                        destination.attribute(named: $0, in: entity) != nil
                            || destination.relationship(named: $0, in: entity) != nil
                    } ?? true
                guard stillThere else { continue }
                let what = loss.property.map { "\(loss.entity).\($0)" } ?? "the objects of \(loss.entity)"
                lints.append(
                    Lint(
                        rule: .dataDropped, severity: .warning, entity: loss.entity, property: loss.property,
                        message:
                            "\(what) is dropped by the step \(source.name) → \(next.name) and arrives empty in \(to): a migration walks every version in between"
                    ))
            }
        }
        return lints
    }
}
