import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

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
        // The two steps of the plan run as one pass: the bar counts the plan's steps, under the API's names.
        #expect(bar.hasSuffix("100%  step 2/2 finished"), "\(bar)")
        // Every frame has the bar's cells for this width, whatever the text beside it.
        let frames = screen.frames + screen.lines
        #expect(frames.count >= 5)
        for frame in frames {
            #expect(frame.filter { $0 == "█" || $0 == "░" }.count == ProgressBar.cells(columns: columns), "\(frame)")
        }
        let phases = Set(
            frames.compactMap { frame in MigrationProgress.Phase.allCases.first { frame.contains($0.rawValue) } })
        #expect(phases.isSubset(of: Set(MigrationProgress.Phase.allCases)) && phases.contains(.finished), "\(frames)")
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

    /// `--progress json` prints fractions with at most 4 decimals, the plan's steps apart from the passes, and
    /// the steps of the pass.
    @Test func theJSONLineHasNoFloatNoise() throws {
        let progress = MigrationProgress(
            phase: .relationships, step: 2, steps: 3, pass: 1, passes: 1, passSteps: 1...3,
            entity: "AVeryLongEntityNameIndeed", completed: 1_234_567, total: 9_876_543, fraction: 0.4321,
            estimatedSecondsRemaining: 12.3)
        #expect(
            progress.jsonLine
                == #"{"phase":"relationships","step":2,"steps":3,"pass":1,"passes":1,"passSteps":[1,3],"entity":"AVeryLongEntityNameIndeed","completed":1234567,"total":9876543,"fraction":0.4321,"eta":12.3}"#
        )
    }
}
