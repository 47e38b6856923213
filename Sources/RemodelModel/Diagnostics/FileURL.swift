import Foundation

extension URL {
    /// The path of a file URL, for the API that takes paths as strings.
    /// - Throws: ``RemodelError/Code/io`` when the URL is not a file URL.
    package func filePath() throws(RemodelError) -> String {
        guard isFileURL else {
            throw RemodelError(.io, "\(absoluteString) is not a file URL; give a file's URL (URL(fileURLWithPath:))")
        }
        return path
    }
}
