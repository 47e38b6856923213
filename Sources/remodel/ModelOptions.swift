import ArgumentParser
import Remodel

/// Reads the MODEL argument of a subcommand, printing reading errors the way `validate` does.
func loadBundle(_ path: String) throws -> ModelBundle {
    do {
        return try ModelBundle(contentsOf: path)
    } catch {
        printError(error.description)
        throw ExitCode(2)
    }
}

/// Prints one line on standard error.
func printError(_ message: String) {
    var standardError = StandardError()
    print("error: \(message)", to: &standardError)
}

/// Standard error as a text output stream.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandleOutput.writeToStandardError(string)
    }
}
