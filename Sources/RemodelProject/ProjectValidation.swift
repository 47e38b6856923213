import Foundation
public import Remodel

/// `remodel validate` as a whole: every model at or under the paths, then
/// every mapping file found there, read, merged over inference and
/// type-checked against the bundle its `model` attribute names, then every
/// bundle's steps, as a migration plans them (`StepValidation`).
///
/// For example:
/// ```swift
/// let report = try ProjectValidation.validate(paths: [])   // Models and Mappings
/// print(report.formatted(as: .text))
/// ```
public enum ProjectValidation {
    /// Validates models and mapping files.
    ///
    /// A mapping file is checked against the bundle named by its `model`
    /// attribute, found among the given paths or under `Models`; an Xcode
    /// mapping model (`*.xcmappingmodel`) against the bundle its model paths
    /// or model snapshots name.
    /// - Parameters:
    ///   - paths: What to check (default: `Models` and `Mappings`).
    ///   - registeredPolicyClasses: Migration policy classes the app registers Swift code for
    ///     (``/Remodel/MigrationOptions/register(_:forClass:)``): Xcode mapping models naming them get no warning.
    /// - Throws: ``/RemodelModel/RemodelError`` with code ``/RemodelModel/RemodelError/Code/io`` when a path does not
    ///   exist.
    public static func validate(paths: [String], registeredPolicyClasses: Set<String> = []) throws(RemodelError)
        -> ValidationReport
    {
        try validate(paths: paths, registeredPolicyClasses: registeredPolicyClasses, progress: nil)
    }

    /// ``validate(paths:registeredPolicyClasses:)``, telling `progress` how many model and mapping files are checked.
    package static func validate(
        paths: [String], registeredPolicyClasses: Set<String> = [], progress: ((OperationProgress) -> Void)?
    ) throws(RemodelError) -> ValidationReport {
        let reporter = OperationProgressReporter(progress)
        let report = try Validation.validate(paths: paths, progress: reporter)
        var diagnostics: [Diagnostic] = []
        if !report.mappingFiles.isEmpty {
            let searched = (paths.isEmpty ? Validation.defaultPaths : paths) + ["Models"]
            let bundles = Self.bundles(under: searched.filter { FileManager.default.fileExists(atPath: $0) })
            let files = report.modelCount + report.mappingFiles.count
            var steps = XcodeMappingValidation.RemodelSteps()
            for (done, path) in report.mappingFiles.enumerated() where !XcodeMappingLoader.isXcodeMapping(path) {
                reporter.report(
                    "checking", item: path, completed: report.modelCount + done, total: files, unit: .files)
                diagnostics += check(mappingFile: path, bundles: bundles, searched: searched)
                if let duplicate = steps.add(path) { diagnostics.append(duplicate) }
            }
            for path in report.mappingFiles where XcodeMappingLoader.isXcodeMapping(path) {
                diagnostics += XcodeMappingValidation.check(
                    path: path, bundles: bundles, searched: searched, remodelSteps: steps,
                    registeredPolicyClasses: registeredPolicyClasses)
            }
            reporter.report("checking", item: nil, completed: files, total: files, unit: .files)
        }
        // A step is checked with the mapping files that can be read: while one has errors, those are what to fix.
        if !diagnostics.containsErrors { diagnostics += steps(of: report, paths: paths) }
        return ValidationReport(
            diagnostics: report.diagnostics + diagnostics, modelCount: report.modelCount,
            versionCount: report.versionCount, mappingFiles: report.mappingFiles)
    }

    /// The steps of every bundle checked that has no error, with the mapping files found among the paths, or
    /// under `Mappings` (``StepValidation``).
    private static func steps(of report: ValidationReport, paths: [String]) -> [Diagnostic] {
        var files = report.mappingFiles
        var searched = paths.isEmpty ? Validation.defaultPaths : paths
        if !paths.isEmpty, FileManager.default.fileExists(atPath: "Mappings") {
            var mappings = ModelSearch()
            try? mappings.add("Mappings")
            files += mappings.mappingFiles.filter { !files.contains($0) }
            searched.append("Mappings")
        }
        return report.bundlesWithoutErrors.flatMap { bundle in
            StepValidation.check(bundle, mappingFiles: files, searched: searched)
        }
    }

    private static func bundles(under paths: [String]) -> [String: ModelBundle] {
        var search = ModelSearch()
        for path in paths { try? search.add(path) }
        var result: [String: ModelBundle] = [:]
        for model in search.models {
            if let bundle = ModelReader.read(path: model.path).bundle, result[bundle.name] == nil {
                result[bundle.name] = bundle
            }
        }
        return result
    }

    static func check(mappingFile path: String, bundles: [String: ModelBundle], searched: [String]) -> [Diagnostic] {
        let (file, readDiagnostics) = MappingFileReader.read(path: path)
        guard let file else { return readDiagnostics }
        guard let bundle = bundles[file.modelName] else {
            let places = searchedPlaces(searched)
            return readDiagnostics + [
                Diagnostic(
                    .error, rule: .mappingUnknownModel,
                    message:
                        "no model named '\(file.modelName)' was found (looked in \(places)); give its .xcdatamodeld bundle as a path too",
                    at: file.source.location(of: "model"))
            ]
        }
        let (mapping, resolveDiagnostics) = MappingResolver.resolve(file: file, bundle: bundle)
        var diagnostics = readDiagnostics + resolveDiagnostics
        if let mapping, let source = bundle.version(named: file.sourceVersion),
            let destination = bundle.version(named: file.destinationVersion)
        {
            diagnostics += MappingChecker.diagnostics(for: mapping, source: source, destination: destination)
        }
        return diagnostics
    }

    /// The folders searched for models, each once, for messages.
    static func searchedPlaces(_ searched: [String]) -> String {
        var seen: Set<String> = []
        return searched.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }
}
