import Foundation

/// Writes one line to standard error, for failures that are not diagnostics.
func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
