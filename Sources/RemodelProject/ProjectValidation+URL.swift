public import Foundation
public import Remodel

extension ProjectValidation {
    /// Validates models and mapping files at file URLs; see ``validate(paths:registeredPolicyClasses:)``.
    ///
    /// For example:
    /// ```swift
    /// let report = try ProjectValidation.validate(urls: [modelsURL, mappingsURL])
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` as the path-taking method does.
    public static func validate(urls: [URL]) throws(RemodelError) -> ValidationReport {
        var paths: [String] = []
        for url in urls { paths.append(try url.filePath()) }
        return try validate(paths: paths)
    }
}
