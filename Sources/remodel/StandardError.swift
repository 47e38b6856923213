import Foundation
import Remodel

/// Writes one line to standard error, for failures that are not diagnostics.
func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Prints `error: message` on standard error.
func printError(_ message: String) {
    printToStandardError("error: \(message)")
}

/// What a failure prints on standard error: a model's errors first, one a line, as `remodel validate` prints
/// them (`path:line:column: error: message [rule]`), then `error: ` and the failure's sentence.
func failureText(_ error: RemodelError, prefix: String = "") -> String {
    (error.diagnostics.map(\.description) + ["error: \(prefix)\(error.description)"]).map { $0 + "\n" }.joined()
}

/// Prints ``failureText(_:prefix:)`` on standard error.
func printFailure(_ error: RemodelError, prefix: String = "") {
    FileHandle.standardError.write(Data(failureText(error, prefix: prefix).utf8))
}
