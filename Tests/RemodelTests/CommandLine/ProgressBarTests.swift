import Foundation
import Testing

@testable import Remodel

/// The progress bar on a real (pseudo-)terminal: it fits the width and is redrawn in place; a migration
/// leaves its finished bar, the other long operations leave nothing. Off a terminal, nothing is drawn.
@Suite struct ProgressBarTests {
    @Test(arguments: [60, 80, 120])
    func theMigrationBarFitsTheTerminalAndLeavesOneLine(columns: Int) throws {
        let migration = try MigrationCase(
            bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
        let screen = try PseudoTerminal.run(
            ["migrate", migration.store, "--model", "Models/Library.xcdatamodeld"], columns: columns)
        #expect(screen.status == 0, "\(screen.lines)")
        #expect(screen.output.hasPrefix("Migrated \(migration.store) from Library to Library 3 in 2 steps"))
        #expect(!screen.wrapped, "a line wrapped: \(screen.lines)")
        #expect(screen.widest < columns, "\(screen.widest) characters on a terminal \(columns) wide")
        #expect(screen.unknownEscapes.isEmpty)
        #expect(screen.redraws >= 5, "the bar is drawn again as the migration goes: \(screen.redraws) times")
        #expect(screen.lines.count == 1, "only the finished bar is left: \(screen.lines)")
        let bar = try #require(screen.lines.first)
        #expect(bar.contains("100%") && bar.hasSuffix("done"), "\(bar)")
        // The two steps of the plan run as one pass.
        #expect(bar.hasSuffix("100%  pass 1/1 (steps 1–2) done"), "\(bar)")
    }

    /// `create --seed`, `import`, `export` and `validate` draw the bar while they work and clear it when done.
    @Test(arguments: [60, 80])
    func longOperationsDrawTheBarAndClearIt(columns: Int) throws {
        let folder = try TemporaryFolder()
        let seed = try folder.write(Self.people(3_000), to: "people.json")
        let store = folder.file("library.sqlite")
        let model = "Models/Library.xcdatamodeld"
        let commands = [
            ["create", store, "--model", model, "--version", "Library", "--seed", seed],
            ["export", store, "--model", model, "-o", folder.file("export.json")],
            ["validate", model, "Mappings"],
        ]
        for command in commands {
            let screen = try PseudoTerminal.run(command, columns: columns)
            #expect(screen.status == 0, "\(command): \(screen.lines)")
            #expect(screen.drawn > 0 && screen.redraws >= 2, "\(command): a bar was drawn, then cleared")
            #expect(screen.lines.isEmpty, "\(command) leaves nothing behind: \(screen.lines)")
            #expect(!screen.wrapped && screen.widest < columns, "\(command)")
        }
        let quiet = try RemodelProcess.run(["import", store, seed, "--model", model])
        #expect(quiet.status == 1, "the people are there already: \(quiet.error)")
        #expect(!quiet.error.contains("█") && !quiet.error.contains("\u{1B}"), "no bar off a terminal")
    }

    /// A seed of `count` people at version Library.
    private static func people(_ count: Int) -> String {
        let objects = (1...count).map {
            #"    {"_pk": \#($0), "email": null, "firstName": "Ada", "lastName": "Lovelace", "yearsSinceBirth": 36, "books": []}"#
        }
        return "{\n  \"Person\": [\n" + objects.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// `--progress json` prints fractions with at most 4 decimals and names the plan's steps of the pass and the
    /// step running.
    @Test func theJSONLineHasNoFloatNoise() throws {
        let progress = MigrationProgress(
            phase: .relationships, step: 1, steps: 2, entity: "AVeryLongEntityNameIndeed", completed: 1_234_567,
            total: 9_876_543,
            fraction: 0.4321, estimatedSecondsRemaining: 12.3, planSteps: 1...3, planStep: 2)
        #expect(
            progress.jsonLine
                == #"{"phase":"relationships","step":1,"steps":2,"entity":"AVeryLongEntityNameIndeed","completed":1234567,"total":9876543,"fraction":0.4321,"eta":12.3,"planSteps":[1,3],"planStep":2}"#
        )
    }
}
