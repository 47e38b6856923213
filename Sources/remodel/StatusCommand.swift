import ArgumentParser
import Foundation
import Remodel

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Say which version a store is at and what would happen next.")

    @OptionGroup var options: StoreOptions

    @Option(name: .long, help: "The folder of mapping files (default: Mappings when it exists).")
    var mappings: String?

    func run() throws {
        let bundle = try options.bundle()
        let inspection = try runReportingFailure { () throws(RemodelError) in
            try StoreInspector.inspect(path: options.store, bundle: bundle)
        }
        let current = bundle.currentVersion.name
        switch inspection.state {
        case .missing, .current, .older:
            print(inspection.message)
        default:
            FileHandle.standardError.write(Data("error: \(inspection.message)\n".utf8))
            throw ExitCode(1)
        }
        switch inspection.state {
        case .missing:
            print("Next: create")
        case .current:
            print("Next: nothing to do")
        case .older(let version, _):
            let steps = inspection.migrationSteps ?? 0
            print("Next: migrate from \(version) to \(current) (\(steps) step\(steps == 1 ? "" : "s"))")
        default:
            break
        }
    }
}
