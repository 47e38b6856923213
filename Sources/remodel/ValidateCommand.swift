import ArgumentParser
import Remodel

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate", abstract: "Check model and mapping files.")

    @Argument(help: "Bundles, version folders, contents files or folders to search (default: Models and Mappings).")
    var paths: [String] = []

    func run() throws {
        var errors = 0
        for path in paths {
            let result = ModelReader.read(path: path)
            for diagnostic in result.diagnostics.sorted() {
                print(diagnostic)
                if diagnostic.severity == .error { errors += 1 }
            }
        }
        if errors > 0 { throw ExitCode(1) }
    }
}
