import Foundation

/// The optional `.remodel-version-order` file of a bundle: every version name, oldest first,
/// one a line (with or without `.xcdatamodel`); `#` starts a comment line. A line may also
/// declare names the version had before its folder was renamed, after `<-`:
///
/// ```
/// App
/// App 2 <- App 2 beta <- App2
/// App 3
/// ```
///
/// A store that recorded `App 2 beta` is then at `App 2`.
enum VersionOrderFile {
    static let fileName = ModelBundle.versionOrderFileName

    /// The version names in migration order, the former names (former → now), and problems with the file.
    static func order(_ names: [String], bundlePath: String) -> ([String], [String: String], [Diagnostic]) {
        let natural = names.sorted(by: NaturalOrder.areInIncreasingOrder)
        let orderPath = "\(bundlePath)/\(fileName)"
        guard let text = FileSystem.text(atPath: orderPath) else { return (natural, [:], []) }
        var diagnostics: [Diagnostic] = []
        var listed: [String] = []
        var former: [String: String] = [:]
        let known = Set(names)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            let parts = trimmed.components(separatedBy: "<-").map { bare($0.trimmingCharacters(in: .whitespaces)) }
            let name = parts[0]
            let location = SourceLocation(file: orderPath, line: number + 1, column: 1)
            guard known.contains(name) else {
                diagnostics.append(
                    Diagnostic(
                        .error, rule: .versionOrderUnknown,
                        message: "the version order names '\(name)', which is not a version of this bundle",
                        at: location))
                continue
            }
            if !listed.contains(name) { listed.append(name) }
            for old in parts.dropFirst() where !old.isEmpty {
                if known.contains(old) {
                    diagnostics.append(
                        Diagnostic(
                            .error, rule: .versionOrderFormerName,
                            message:
                                "'\(old)' is declared a former name of '\(name)', but it is a version of this bundle; a former name must be one no version has now",
                            at: location))
                } else if let other = former[old], other != name {
                    diagnostics.append(
                        Diagnostic(
                            .error, rule: .versionOrderFormerName,
                            message:
                                "'\(old)' is declared a former name of both '\(other)' and '\(name)'; keep it on one line",
                            at: location))
                } else {
                    former[old] = name
                }
            }
        }
        for name in natural where !listed.contains(name) {
            diagnostics.append(
                Diagnostic(
                    .error, rule: .versionOrderIncomplete,
                    message:
                        "the version order does not list version '\(name)'; add it on its own line where it belongs",
                    at: SourceLocation(file: orderPath, line: 1, column: 1)))
            listed.append(name)
        }
        return (listed, former, diagnostics)
    }

    private static func bare(_ name: String) -> String {
        name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }
}
