import Foundation

/// Writes one line to standard error, for failures that are not diagnostics.
func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Prints `error: message` on standard error.
func printError(_ message: String) {
    printToStandardError("error: \(message)")
}
