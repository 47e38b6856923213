import Foundation

/// `remodel validate` as a whole: every model at or under the paths, then
/// every mapping file found there, read, merged over inference and
/// type-checked against the bundle its `model` attribute names.
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
    /// attribute, found among the given paths or under `Models`.
    /// - Throws: ``RemodelError`` with code ``RemodelError/Code/io`` when a path does not exist.
    public static func validate(paths: [String]) throws(RemodelError) -> ValidationReport {
        try validate(paths: paths, progress: nil)
    }

    /// ``validate(paths:)``, telling `progress` how many model and mapping files are checked.
    package static func validate(paths: [String], progress: ((OperationProgress) -> Void)?) throws(RemodelError) -> ValidationReport {
        let reporter = OperationProgressReporter(progress)
        var report = try Validation.validate(paths: paths, progress: reporter)
        guard !report.mappingFiles.isEmpty else { return report }
        let searched = (paths.isEmpty ? Validation.defaultPaths : paths) + ["Models"]
        let bundles = Self.bundles(under: searched.filter { FileManager.default.fileExists(atPath: $0) })
        var diagnostics = report.diagnostics
        let files = report.modelCount + report.mappingFiles.count
        for (done, path) in report.mappingFiles.enumerated() {
            reporter.report("checking", item: path, completed: report.modelCount + done, total: files, unit: .files)
            diagnostics += check(mappingFile: path, bundles: bundles, searched: searched)
        }
        reporter.report("checking", item: nil, completed: files, total: files, unit: .files)
        report = ValidationReport(
            diagnostics: diagnostics, modelCount: report.modelCount, versionCount: report.versionCount,
            mappingFiles: report.mappingFiles)
        return report
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
        if path.contains(".xcmappingmodel/") {
            return [
                Diagnostic(
                    .warning, rule: "xcode-mapping-model",
                    message: "Xcode mapping models (.xcmappingmodel) are not read by Remodel; write what it does as a Remodel mapping file (`remodel infer` gives a start)",
                    at: SourceLocation(file: path))
            ]
        }
        let (file, readDiagnostics) = MappingFileReader.read(path: path)
        guard let file else { return readDiagnostics }
        guard let bundle = bundles[file.modelName] else {
            var seen: Set<String> = []
            let places = searched.filter { seen.insert($0).inserted }.joined(separator: ", ")
            return readDiagnostics + [
                Diagnostic(
                    .error, rule: "mapping-unknown-model",
                    message: "no model named '\(file.modelName)' was found (looked in \(places)); give its .xcdatamodeld bundle as a path too",
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
}
