import ArgumentParser
import Foundation
import Remodel

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Say which version a store is at and what would happen next.",
        discussion: CommandHelp.discussion(
            examples: [
                .init(
                    "remodel status library.sqlite --model Models/Library.xcdatamodeld",
                    does: "Name the store's version and print the plan `remodel migrate` would run.")
            ],
            exitStatus: [
                .success("the store is missing, current, or older with a migration that can be planned"),
                .refused("newer than the model, another model's, not a store, or older but not migratable yet"),
                .couldNotStart(), .usage,
            ]))

    @OptionGroup var options: StoreOptions

    @Option(name: .long, help: "The folder of mapping files (default: Mappings when it exists).")
    var mappings: String?

    func run() throws {
        let bundle = try options.bundle()
        let inspection = try runReportingFailure { () throws(RemodelError) in
            try StoreInspector.inspect(path: options.store, bundle: bundle)
        }
        switch inspection.state {
        case .missing, .current, .older:
            print(inspection.message)
            if case .missing = inspection.state {} else { print(Self.carriedModelLine(store: options.store)) }
        case .newer where inspection.isAfterCurrentVersion:
            print(inspection.message)
            print(Self.carriedModelLine(store: options.store))
        case .newer:
            printError(inspection.message)
            printDowngrade(bundle: bundle)
            throw ExitCode(1)
        default:
            printError(inspection.message)
            throw ExitCode(1)
        }
        switch inspection.state {
        case .missing:
            print("Next: create")
        case .current:
            print("Next: nothing to do")
        case .older:
            let migrator = Migrator(
                bundle: bundle, options: MigrationOptions(mappingsDirectory: mappings ?? defaultMappingsDirectory()))
            do {
                let plan = try migrator.plan(storeAt: options.store)
                print("Next: migrate. The plan:")
                print(plan.description, terminator: "")
                if !plan.steps.isEmpty { print(migrator.passSummary(of: plan)) }
            } catch {
                printFailure(error, prefix: "the store cannot be migrated yet: ")
                throw ExitCode(1)
            }
        default:
            break
        }
    }
}
