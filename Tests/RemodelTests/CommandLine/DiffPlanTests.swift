import Foundation
import Testing

@testable import Remodel

/// `remodel diff` shows the plan `remodel migrate --dry-run` runs for a store at the first version, in text and in
/// JSON: mapping files (the default folder, `Mappings`, or `--mappings`) merged over inference, or, for a step no
/// file maps that inference cannot carry, a `needs-mapping` error and no plan.
struct DiffPlanTests {
    private static let model = Reliability.modelPath

    /// The dry run's `Drops` lines name counts read from the store; the diff's, read from no store, say when they are
    /// counted: the rest of each line is the same.
    private static func withoutCounts(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("  Drops "), let open = line.lastIndex(of: "(") else { return String(line) }
            return String(line[..<open])
        }.joined(separator: "\n")
    }

    /// A JSON plan with its drops' counts taken out (see ``withoutCounts(_:)``).
    private static func planObject(_ json: Any?) throws -> NSDictionary {
        let plan = try #require(json as? [String: Any])
        var steps: [[String: Any]] = []
        for var step in try #require(plan["steps"] as? [[String: Any]]) {
            step["drops"] = (step["drops"] as? [[String: Any]])?.map { $0.filter { $0.key != "count" } }
            steps.append(step)
        }
        return plan.merging(["steps": steps]) { $1 } as NSDictionary
    }

    @Test(arguments: [("Library", "Library 2"), ("Library", "Library 3"), ("Library 2", "Library 3")])
    func diffPrintsThePlanTheDryRunRuns(from: String, to: String) throws {
        let folder = try TemporaryFolder()
        let store = folder.file("store.sqlite")
        _ = try Store.create(at: store, bundle: try MigrationFixtures.library(), version: from)
        let dryRun = try RemodelProcess.run(["migrate", store, "--model", Self.model, "--to", to, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun)")
        let diff = try RemodelProcess.run(["diff", Self.model, "--from", from, "--to", to])
        #expect(diff.status == 0, "\(diff)")
        let heading = "\nThe plan, as `remodel migrate` runs it for a store at \(from):\n"
        let plan = try #require(diff.output.components(separatedBy: heading).last)
        #expect(diff.output.contains(heading), "\(diff)")
        expectSameText(Self.withoutCounts(plan), Self.withoutCounts(dryRun.output))
        #expect(!diff.output.contains("[needs-mapping]"))

        let dryRunJSON = try RemodelProcess.run([
            "migrate", store, "--model", Self.model, "--to", to, "--dry-run", "--format", "json",
        ])
        let diffJSON = try RemodelProcess.run(["diff", Self.model, "--from", from, "--to", to, "--format", "json"])
        #expect(dryRunJSON.status == 0 && diffJSON.status == 0, "\(dryRunJSON) \(diffJSON)")
        let diffObject = try #require(
            try JSONSerialization.jsonObject(with: Data(diffJSON.output.utf8)) as? [String: Any])
        #expect(
            try Self.planObject(diffObject["plan"])
                == Self.planObject(try JSONSerialization.jsonObject(with: Data(dryRunJSON.output.utf8))))
        #expect(diffObject["from"] as? String == from && diffObject["to"] as? String == to)
    }

    /// Without the mapping file (an empty `--mappings` folder), the step that needs one is an error and there is no
    /// plan; with the file, `Person.fullName` is the file's and `firstName`, `lastName` are read, not lost.
    @Test func aStepWithoutItsMappingFileIsAnErrorAndTheFileMakesItAPlan() throws {
        let empty = try TemporaryFolder()
        let without = try RemodelProcess.run([
            "diff", Self.model, "--from", "Library", "--to", "Library 2", "--mappings", empty.path,
        ])
        #expect(without.status == 1)
        #expect(
            without.output.contains(
                #"error: Person.fullName: String attribute is new and required, with no default value; add to a mapping file: <attribute name="fullName" value="…"/> [needs-mapping]"#
            ), "\(without)")
        #expect(!without.output.contains("The plan"))
        let json = try RemodelProcess.run([
            "diff", Self.model, "--from", "Library", "--to", "Library 2", "--mappings", empty.path, "--format", "json",
        ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["plan"] is NSNull)

        let with = try RemodelProcess.run(["diff", Self.model, "--from", "Library", "--to", "Library 2"])
        #expect(with.status == 0)
        #expect(with.output.contains("      + fullName (String): mapping file Mappings/Library to Library 2.xml:7:9\n"))
        #expect(with.output.contains("      - firstName (String): read by the mapping, not kept\n"))
        #expect(with.output.contains("warning: Person.email is removed: its values will be dropped [data-dropped]\n"))
        #expect(!with.output.contains("Person.firstName is removed"), "\(with)")
    }
}
