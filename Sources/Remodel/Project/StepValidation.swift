/// `remodel validate`'s check of a bundle's steps: from each version before the current one, a migration
/// takes a mapping file that starts there (a Remodel mapping file or an Xcode mapping model) or infers the step
/// to the next version. A step it must infer, where inference cannot carry the data (a new required attribute with
/// no default, an attribute made required), is an error at the change in the model, as `remodel diff` and a
/// migration would refuse the step.
enum StepValidation {
    /// The diagnostics of `bundle`'s steps, given the mapping files found (`mappingFiles`; those of other models
    /// are ignored) and the places searched for them (named in the messages).
    static func check(_ bundle: ModelBundle, mappingFiles: [String], searched: [String]) -> [Diagnostic] {
        guard let end = bundle.index(ofVersion: bundle.currentVersionName), end > 0 else { return [] }
        let starts = startingVersions(of: bundle, in: mappingFiles)
        var diagnostics: [Diagnostic] = []
        for index in 0..<end where !starts.contains(bundle.versionNames[index]) {
            guard let source = bundle.version(named: bundle.versionNames[index]),
                let destination = bundle.version(named: bundle.versionNames[index + 1])
            else { continue }
            let mapping = MappingInference.infer(from: source, to: destination, modelName: bundle.name)
            for problem in mapping.problems {
                diagnostics.append(
                    Diagnostic(
                        .error, rule: .needsMapping,
                        message:
                            "the step \(source.name) → \(destination.name) needs a mapping file, and none maps it (looked in \(ProjectValidation.searchedPlaces(searched))): \(problem)",
                        at: location(of: problem, in: destination, else: source)))
            }
        }
        return diagnostics
    }

    /// The versions a mapping file for `bundle` starts from (its backward Xcode mapping models do not count).
    private static func startingVersions(of bundle: ModelBundle, in files: [String]) -> Set<String> {
        var starts: Set<String> = []
        for path in files {
            if XcodeMappingLoader.isXcodeMapping(path) {
                guard let loaded = XcodeMappingLoader.load(path: path, bundle: bundle), !loaded.isBackwards(in: bundle),
                    let match = loaded.translation?.match
                else { continue }
                starts.insert(match.source.name)
            } else if let file = MappingFileReader.read(path: path).0, file.modelName == bundle.name {
                starts.insert(file.sourceVersion)
            }
        }
        return starts
    }

    /// Where a problem is in the model: the destination's property or entity, else the source's (an entity
    /// removed), else the destination version's file.
    private static func location(of problem: MappingProblem, in destination: ModelVersion, else source: ModelVersion)
        -> SourceLocation
    {
        for version in [destination, source] {
            guard let entity = version.entity(named: problem.entity) else { continue }
            if let name = problem.property {
                if let attribute = version.attribute(named: name, in: entity) { return attribute.source.location }
                if let relationship = version.relationship(named: name, in: entity) {
                    return relationship.source.location
                }
            }
            return entity.source.location
        }
        return SourceLocation(file: destination.path, line: 1, column: 1)
    }
}
