import Foundation
import Testing
@testable import Remodel

/// The progress bar of `remodel migrate` on a real (pseudo-)terminal: it fits the width, is redrawn in
/// place, and leaves one line behind.
@Suite struct ProgressBarTests {
    @Test(arguments: [60, 80, 120])
    func theMigrationBarFitsTheTerminalAndLeavesOneLine(columns: Int) throws {
        let migration = try MigrationCase(bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
        let screen = try PseudoTerminal.run(["migrate", migration.store, "--model", "Models/Library.xcdatamodeld"], columns: columns)
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

    /// `--progress json` prints fractions with at most 4 decimals and names the plan's steps of the pass.
    @Test func theJSONLineHasNoFloatNoise() throws {
        let progress = MigrationProgress(
            phase: .relationships, step: 1, steps: 2, entity: "AVeryLongEntityNameIndeed", completed: 1_234_567, total: 9_876_543,
            fraction: 0.4321, estimatedSecondsRemaining: 12.3, planSteps: 1...3)
        #expect(progress.jsonLine == #"{"phase":"relationships","step":1,"steps":2,"entity":"AVeryLongEntityNameIndeed","completed":1234567,"total":9876543,"fraction":0.4321,"eta":12.3,"planSteps":[1,3]}"#)
    }
}
