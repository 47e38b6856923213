import ArgumentParser
import Foundation
import Remodel

/// Options every store subcommand takes.
struct StoreOptions: ParsableArguments {
    @Argument(help: "The store file.")
    var store: String

    @Option(name: .long, help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.")
    var model: String

    /// Reads the model, printing the reason and failing when it cannot be read.
    func bundle() throws -> ModelBundle {
        try runReportingFailure { () throws(RemodelError) in try ModelBundle(contentsOf: model) }
    }
}

/// Runs `body`; on a ``RemodelError`` prints its one sentence to standard error and exits with status 1.
func runReportingFailure<T>(_ body: () throws(RemodelError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
        throw ExitCode(1)
    }
}
