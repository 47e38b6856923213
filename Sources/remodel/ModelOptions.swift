import ArgumentParser
import Remodel

/// Reads the MODEL argument of a subcommand; a model that cannot be read ends the command with status 2.
func loadBundle(_ path: String) throws -> ModelBundle {
    do {
        return try ModelBundle(contentsOf: path)
    } catch {
        printError(error.description)
        throw ExitCode(2)
    }
}
