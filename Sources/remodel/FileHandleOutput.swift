import Foundation

/// Writes to the standard streams without buffering surprises.
enum FileHandleOutput {
    static func writeToStandardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
