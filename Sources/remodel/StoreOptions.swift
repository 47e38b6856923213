import ArgumentParser
import Foundation
import Remodel

/// Options every store subcommand takes.
struct StoreOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(OptionHelp.store, valueName: "store"))
    var store: String

    @Option(name: .long, help: ArgumentHelp(OptionHelp.model, valueName: "model"))
    var model: String

    /// Reads the model, printing the reason and failing when it cannot be read.
    func bundle() throws -> ModelBundle {
        try loadBundle(model)
    }
}

/// `-q`/`--quiet`, for the subcommands that print progress or a closing line.
struct QuietOption: ParsableArguments {
    @Flag(name: [.short, .long], help: "Print no progress and no closing line: only errors.")
    var quiet = false
}

/// Runs `body`; on a ``RemodelError`` prints its one sentence to standard error and exits with `status`, or
/// else with the status ``ExitStatus/of(_:)-(RemodelError)`` gives (1: refused; 2: an input that is not there).
func runReportingFailure<T>(status: Int32? = nil, _ body: () throws(RemodelError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        printFailure(error)
        throw ExitCode(status ?? ExitStatus.of(error))
    }
}

/// Reads a model given on the command line; when it cannot, prints why and exits with status 2.
func loadBundle(_ path: String) throws -> ModelBundle {
    try runReportingFailure(status: ExitStatus.couldNotStart) { () throws(RemodelError) in
        try ModelBundle(contentsOf: path)
    }
}

/// Writes a command's text to `output`, or to standard output when there is none.
func writeOutput(_ text: String, to output: String?, describing what: String) throws {
    guard let output else {
        print(text, terminator: "")
        return
    }
    do {
        // Replaced by a rename, so never written through; still, only a file Remodel may have made is replaced.
        try FileSystem.requireOwnFile(output)
        try text.write(toFile: output, atomically: true, encoding: .utf8)
    } catch let error as RemodelError {
        printFailure(error)
        throw ExitCode(2)
    } catch {
        printError("\(output): cannot write \(what): \(error.localizedDescription)")
        throw ExitCode(ExitStatus.couldNotStart)
    }
}
