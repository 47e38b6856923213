import Testing

@testable import Remodel

/// The bar's frames, verbatim, at 60 and 80 columns: the bar keeps its cells from frame to frame, the stage
/// names the API's phase after the plan's step ("step k/n", so the second step of a pass never looks like a
/// restart), the counts say what they count, and the time left shows only once it is known.
@Suite struct ProgressBarFrameTests {
    /// A migration of two steps in one pass, at the moments a bar shows.
    static let composedPass: [MigrationProgress] = [
        value(.planning, step: 0, fraction: 0),
        value(.instances, step: 1, entity: "Person", completed: 30_000, total: 80_000, fraction: 0.0506),
        value(
            .relationships, step: 1, entity: "Person", completed: 120_000, total: 200_000, fraction: 0.2249, eta: 3.2),
        value(.indexes, step: 1, entity: "Book", completed: 80_000, total: 200_000, fraction: 0.3132, eta: 2.4),
        value(.validation, step: 1, entity: "Book", completed: 375_000, total: 400_000, fraction: 0.4852, eta: 1.1),
        value(.instances, step: 2, entity: "AVeryLongEntityNameIndeed", completed: 1, total: 2, fraction: 0.5, eta: 1),
        value(.replace, step: 2, fraction: 0.99, eta: 0.1),
        value(.finished, step: 2, fraction: 1),
    ]

    private static func value(
        _ phase: MigrationProgress.Phase, step: Int, entity: String? = nil, completed: Int = 0, total: Int = 1,
        fraction: Double, eta: Double? = nil
    ) -> MigrationProgress {
        MigrationProgress(
            phase: phase, step: step, steps: phase == .planning ? 0 : 2, pass: phase == .planning ? 0 : 1,
            passes: phase == .planning ? 0 : 1, passSteps: phase == .planning ? nil : 1...2, entity: entity,
            completed: completed, total: total, fraction: fraction, estimatedSecondsRemaining: eta)
    }

    @Test func framesAt80Columns() {
        #expect(
            Self.composedPass.map { ProgressBar($0).rendered(columns: 80) } == [
                "░░░░░░░░░░░░░░░░   0%  planning",
                "░░░░░░░░░░░░░░░░   5%  step 1/2 instances  Person  30,000/80,000 objects",
                "███░░░░░░░░░░░░░  22%  step 1/2 relationships  Person  120,000/200,000  ETA 4s",
                "█████░░░░░░░░░░░  31%  step 1/2 indexes  Book  80,000/200,000  ETA 3s",
                "███████░░░░░░░░░  48%  step 1/2 validation  Book  375,000/400,000  ETA 2s",
                "████████░░░░░░░░  50%  step 2/2 instances  AVeryLongEn…  1/2  ETA 1s",
                "███████████████░  99%  step 2/2 replace  ETA 1s",
                "████████████████ 100%  step 2/2 finished",
            ])
    }

    /// Waiting for another process's migration of the store: the stage says so, with how far that one is,
    /// shortened on a narrower terminal.
    @Test func waitingFrames() {
        let waiting = MigrationProgress(
            phase: .waiting, step: 0, steps: 0, pass: 0, passes: 0, passSteps: nil, entity: nil, completed: 4_242,
            total: 10_000, fraction: 0, estimatedSecondsRemaining: nil)
        #expect(
            [100, 72, 40].map { ProgressBar(waiting).rendered(columns: $0) } == [
                "░░░░░░░░░░░░░░░░░░░░   0%  waiting for another process's migration of this store (42% done)",
                "░░░░░░░░░░░░░░   0%  waiting for another process's migration (42%)",
                "░░░░░░░░░░   0%  waiting (42%)",
            ])
    }

    @Test func framesAt60Columns() {
        #expect(
            Self.composedPass.map { ProgressBar($0).rendered(columns: 60) } == [
                "░░░░░░░░░░░░   0%  planning",
                "░░░░░░░░░░░░   5%  step 1/2 instances  Person",
                "██░░░░░░░░░░  22%  step 1/2 relationships  Person  ETA 4s",
                "███░░░░░░░░░  31%  step 1/2 indexes  Book  ETA 3s",
                "█████░░░░░░░  48%  step 1/2 validation  Book  ETA 2s",
                "██████░░░░░░  50%  step 2/2 instances  AVeryLongEn…  ETA 1s",
                "███████████░  99%  step 2/2 replace  ETA 1s",
                "████████████ 100%  step 2/2 finished",
            ])
    }

    /// A wider terminal has room for what the counts count (the frame docs/MIGRATION.md shows).
    @Test func aFrameAt100Columns() {
        #expect(
            ProgressBar(Self.composedPass[4]).rendered(columns: 100)
                == "█████████░░░░░░░░░░░  48%  step 1/2 validation  Book  375,000/400,000 rows checked  ETA 2s")
    }

    /// Every frame at a width has the same bar, and fits: from a narrow terminal to a wide one.
    @Test(arguments: [20, 40, 60, 80, 120, 200])
    func theBarKeepsItsCellsAndFits(columns: Int) {
        for progress in Self.composedPass {
            let frame = ProgressBar(progress).rendered(columns: columns)
            #expect(frame.count < columns, "\(frame)")
            let cells = frame.filter { $0 == "█" || $0 == "░" }.count
            #expect(cells == (columns >= 20 ? ProgressBar.cells(columns: columns) : 0), "\(frame)")
        }
    }

    /// A plan of three steps in two passes names the pass too, after the step, as long as there is room.
    @Test func aPlanOfSeveralPassesNamesThePass() {
        let progress = MigrationProgress(
            phase: .validation, step: 2, steps: 3, pass: 1, passes: 2, passSteps: 1...2, entity: nil, completed: 5,
            total: 10, fraction: 0.5, estimatedSecondsRemaining: nil)
        #expect(
            ProgressBar(progress).rendered(columns: 80)
                == "████████░░░░░░░░  50%  step 2/3 (pass 1/2) validation  5/10 rows checked")
        #expect(
            ProgressBar(progress).rendered(columns: 60) == "██████░░░░░░  50%  step 2/3 (pass 1/2) validation  5/10")
    }

    /// A file read for an import, an export: the same bar, with what the counts count.
    @Test func anOperationsFrame() {
        let reading = OperationProgress(
            activity: "importing", item: "Person", completed: 1_250_000, total: 5_000_000, unit: .bytes)
        #expect(
            ProgressBar(reading, secondsRemaining: 3.5).rendered(columns: 80)
                == "████░░░░░░░░░░░░  25%  importing  Person  1.3/5.0 MB  ETA 4s")
        let writing = OperationProgress(activity: "exporting", item: nil, completed: 3, total: 4, unit: .objects)
        #expect(
            ProgressBar(writing, secondsRemaining: nil).rendered(columns: 60)
                == "█████████░░░  75%  exporting  3/4 objects")
    }

    /// A long migration's time left in minutes and hours, as a fleet's is.
    @Test func longTimesLeft() {
        #expect([45, 125, 3_725].map { ProgressBar.duration(Double($0)) } == ["45s", "2m05s", "1h02m"])
        let long = ProgressBar(fraction: 0.1, stage: ["instances"], secondsRemaining: 600.2)
        #expect(long.rendered(columns: 60) == "█░░░░░░░░░░░  10%  instances  ETA 10m01s")
    }
}
