import Foundation

/// Validates the models found under paths given on the command line or by a program.
///
/// For example:
/// ```swift
/// let report = try Validation.validate(paths: ["Models/Library.xcdatamodeld"])
/// for diagnostic in report.diagnostics { print(diagnostic) }
/// print(report.summary) // Checked 1 model (3 versions): no problems.
/// ```
package enum Validation {
    /// The folders checked when no path is given (those that exist).
    package static let defaultPaths = ["Models", "Mappings"]

    /// Reads and validates every model at or under `paths`, and lists the mapping files found.
    ///
    /// Each path may be a `.xcdatamodeld` bundle, a `.xcdatamodel` folder, a
    /// `contents` file or a folder searched recursively (hidden entries are
    /// skipped; a bundle found there is read as a whole). With no path, the
    /// ``defaultPaths`` that exist are checked.
    ///
    /// - Parameter paths: What to check, relative to the current directory or absolute.
    /// - Returns: The report, its diagnostics sorted.
    /// - Throws: ``RemodelError`` with code ``RemodelError/Code/io`` when a path does not exist,
    ///   or when no path is given and no default folder exists.
    package static func validate(paths: [String]) throws(RemodelError) -> ValidationReport {
        try validate(paths: paths, progress: OperationProgressReporter(nil))
    }

    /// `validate(paths:)`, telling `progress` how many models are checked, out of the models and
    /// mapping files found (``ProjectValidation`` goes on with the mapping files).
    static func validate(paths: [String], progress: OperationProgressReporter) throws(RemodelError) -> ValidationReport
    {
        let fileManager = FileManager.default
        var roots = paths
        if roots.isEmpty {
            roots = defaultPaths.filter { fileManager.fileExists(atPath: $0) }
            guard !roots.isEmpty else {
                throw RemodelError(
                    .io, "no path given, and there is no Models or Mappings folder here; give the models to check",
                    path: ".")
            }
        }
        var search = ModelSearch()
        for root in roots {
            try search.add(trimmed(root))
        }
        var diagnostics: [Diagnostic] = []
        var bundles: [ModelBundle] = []
        var versionCount = 0
        let files = search.models.count + search.mappingFiles.count
        for (done, model) in search.models.enumerated() {
            progress.report("checking", item: model.path, completed: done, total: files, unit: .files)
            let result = ModelReader.read(path: model.path)
            diagnostics += result.diagnostics
            versionCount += model.versionCount
            if let bundle = result.bundle {
                let found = ModelValidator.validate(bundle)
                diagnostics += found
                if bundle.versionNames.count > 1, !(result.diagnostics + found).containsErrors {
                    bundles.append(bundle)
                }
            }
        }
        progress.report("checking", item: nil, completed: search.models.count, total: files, unit: .files)
        var report = ValidationReport(
            diagnostics: diagnostics, modelCount: search.models.count, versionCount: versionCount,
            mappingFiles: search.mappingFiles.sorted())
        report.bundlesWithoutErrors = bundles
        return report
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
