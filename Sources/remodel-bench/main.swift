// remodel-bench: times a model migration through the library against the
// same change written by hand in SQL, each scenario in its own child process
// so that peak memory figures do not mix. See docs/BENCHMARK.md.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if let scenario = Options.value(of: "--scenario", in: arguments) {
        try await ScenarioRunner(arguments: arguments).run(scenario)
    } else {
        try Orchestrator(options: try Options(arguments)).run()
    }
} catch {
    FileHandle.standardError.write(Data("remodel-bench: \(error)\n".utf8))
    exit(2)
}
