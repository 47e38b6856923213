/// What a validation run found: every diagnostic, sorted, and what was checked.
///
/// For example:
/// ```swift
/// let report = try Validation.validate(paths: ["Models"])
/// print(report.formatted(as: .text))
/// // Checked 2 models (5 versions): no problems.
/// ```
public struct ValidationReport: Sendable {
    /// Every diagnostic, sorted by file, line and column.
    public var diagnostics: [Diagnostic]
    /// How many models (bundles, version folders or `contents` files) were checked.
    public var modelCount: Int
    /// How many versions those models have.
    public var versionCount: Int
    /// Every `*.xml` file found outside a model bundle, sorted: mapping files, listed for the mapping checks.
    public var mappingFiles: [String]
    /// The bundles of several versions read without an error, whose steps the project's check looks at.
    var bundlesWithoutErrors: [ModelBundle] = []

    /// Creates a report; the diagnostics are sorted.
    public init(diagnostics: [Diagnostic], modelCount: Int, versionCount: Int, mappingFiles: [String] = []) {
        self.diagnostics = diagnostics.sorted()
        self.modelCount = modelCount
        self.versionCount = versionCount
        self.mappingFiles = mappingFiles
    }

    /// The number of errors.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }

    /// The number of warnings.
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }

    /// Whether the run should fail: any error, or any warning when `strict`.
    public func fails(strict: Bool) -> Bool {
        errorCount > 0 || (strict && warningCount > 0)
    }

    /// The closing line of text output, such as `Checked 2 models (5 versions): 2 errors, 1 warning.`
    public var summary: String {
        var checked = "Checked \(counted(modelCount, "model")) (\(counted(versionCount, "version")))"
        if !mappingFiles.isEmpty { checked += " and \(counted(mappingFiles.count, "mapping file"))" }
        var found: [String] = []
        if errorCount > 0 { found.append(counted(errorCount, "error")) }
        if warningCount > 0 { found.append(counted(warningCount, "warning")) }
        return "\(checked): \(found.isEmpty ? "no problems" : found.joined(separator: ", "))."
    }

    /// The report in one of the output formats, ending with a newline.
    public func formatted(as format: DiagnosticFormat) -> String {
        switch format {
        case .text: return DiagnosticFormatter.text(diagnostics, summary: summary)
        case .json: return DiagnosticFormatter.json(diagnostics)
        case .sarif: return DiagnosticFormatter.sarif(diagnostics, ruleSummaries: ValidationRule.summaries)
        }
    }
}

private func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
