internal import Foundation
import Remodel

/// The results of a matrix as a table for people (`remodel test-matrix`) or JSON for programs: one row per
/// case, "from version → head: ok / refused (why) / needs a mapping (why) / failed (why), objects, seconds".
///
/// For example:
/// ```swift
/// let matrix = MigrationMatrix(model: "Models/Library.xcdatamodeld", mappings: "Mappings")
/// let report = MigrationMatrixReport(matrix: matrix, results: await matrix.run())
/// print(report.text, terminator: "")
/// if report.unexpectedCount > 0 { exit(1) }
/// ```
public struct MigrationMatrixReport: Sendable {
    /// The matrix that ran.
    public let matrix: MigrationMatrix
    /// Its results, in case order.
    public let results: [MigrationTestResult]

    /// A report of results.
    public init(matrix: MigrationMatrix, results: [MigrationTestResult]) {
        self.matrix = matrix
        self.results = results
    }

    /// Cases whose result is not the one expected.
    public var unexpectedCount: Int { results.filter { !$0.isExpected }.count }

    private var modelName: String { (try? matrix.bundle.get().name) ?? "the model" }

    private static func word(_ result: MigrationTestResult) -> String {
        switch result.outcome {
        case .migrated where !result.lostValues.isEmpty: return "ok with losses"
        case .migrated: return "ok"
        case .refused: return "refused"
        case .needsMapping: return "needs a mapping"
        case .failed: return "failed"
        }
    }

    private static func reason(_ outcome: MigrationTestResult.Outcome) -> String? {
        switch outcome {
        case .migrated: return nil
        case .refused(let text), .needsMapping(let text), .failed(let text): return text
        }
    }

    private static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = milliseconds % 1000 / 10
        return "\(milliseconds / 1000).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The table, with each reason and failure under its row, and a closing count.
    public var text: String {
        guard case .success(let bundle) = matrix.bundle else {
            return "error: \(Self.reason(results.first?.outcome ?? .failed("")) ?? "the model could not be read")\n"
        }
        var lines = [
            "\(bundle.name): \(results.count) case\(results.count == 1 ? "" : "s") to \(bundle.currentVersion.name), "
                + "\(matrix.objects) objects per entity, seed number \(matrix.seedNumber)",
            "",
        ]
        let rows = results.map { result -> [String] in
            let fixture = result.testCase.fixture.map { " (\(URL(fileURLWithPath: $0).lastPathComponent))" } ?? ""
            let expected = result.isExpected ? "" : " (unexpected)"
            return [
                result.testCase.version + fixture, Self.word(result) + expected,
                "\(result.objectsBefore) → \(result.objectsAfter)", Self.seconds(result.seconds),
            ]
        }
        let header = ["from → \(bundle.currentVersion.name)", "result", "objects", "seconds"]
        let widths = (0..<4).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return index == 3 ? padding + cell : cell + padding
            }
            return padded.joined(separator: "   ").replacingOccurrences(
                of: "\\s+$", with: "", options: .regularExpression)
        }
        lines.append(line(header))
        for (result, row) in zip(results, rows) {
            lines.append(line(row))
            if let reason = Self.reason(result.outcome), result.failures.isEmpty || !reason.hasSuffix("from the plan") {
                lines += reason.split(separator: "\n").map { "    " + $0 }
            }
            lines += result.failures.map { "    \($0)" }
            lines += result.lostValues.map { "    Lost: \($0)" }
        }
        lines.append("")
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `3 cases: 2 ok, 1 needs a mapping (expected).`, then how many were unexpected. A case that migrated
    /// with values turned into nil is counted apart: `1 ok with losses`.
    public var summary: String {
        var counts: [(String, Int, Int)] = []
        for result in results {
            let word = Self.word(result)
            if let index = counts.firstIndex(where: { $0.0 == word }) {
                counts[index].1 += 1
                counts[index].2 += result.isExpected ? 0 : 1
            } else {
                counts.append((word, 1, result.isExpected ? 0 : 1))
            }
        }
        let parts = counts.map { word, count, unexpected in
            let expectation =
                word.hasPrefix("ok")
                ? "" : unexpected == 0 ? " (expected)" : unexpected == count ? "" : " (\(unexpected) unexpected)"
            return "\(count) \(word)\(expectation)"
        }
        let closing = unexpectedCount == 0 ? "" : " \(unexpectedCount) unexpected."
        return "\(results.count) case\(results.count == 1 ? "" : "s"): \(parts.joined(separator: ", ")).\(closing)"
    }

    /// The report as one JSON object: model, head, settings, one object per case, and the unexpected count.
    public var json: String {
        let cases = results.map { result -> JSONDocument in
            .object([
                ("from", .string(result.testCase.version)),
                ("fixture", result.testCase.fixture.map(JSONDocument.string) ?? .null),
                ("result", .string(Self.word(result))),
                ("expectation", .string(result.testCase.expectation.description)),
                ("asExpected", .bool(result.isExpected)),
                ("reason", Self.reason(result.outcome).map(JSONDocument.string) ?? .null),
                ("objectsBefore", .int(result.objectsBefore)),
                ("objectsAfter", .int(result.objectsAfter)),
                ("seconds", .number((result.seconds * 1000).rounded() / 1000)),
                ("failures", .array(result.failures.map(Self.json))),
                ("seedProblems", .array(result.seedProblems.map(JSONDocument.string))),
                ("losses", .array(result.losses.filter { $0.count != 0 }.map(\.json))),
            ])
        }
        let document = JSONDocument.object([
            ("model", .string(modelName)),
            ("head", matrix.head.map(JSONDocument.string) ?? .null),
            ("objectsPerEntity", .int(matrix.objects)),
            ("seedNumber", .string(String(matrix.seedNumber))),
            ("cases", .array(cases)),
            ("unexpected", .int(unexpectedCount)),
        ])
        return document.rendered() + "\n"
    }

    private static func json(_ failure: MigrationCheckFailure) -> JSONDocument {
        .object([
            ("step", failure.step.map(JSONDocument.string) ?? .null),
            ("entity", failure.entity.map(JSONDocument.string) ?? .null),
            ("property", failure.property.map(JSONDocument.string) ?? .null),
            ("primaryKey", failure.primaryKey.map { .int(Int($0)) } ?? .null),
            ("message", .string(failure.message)),
        ])
    }
}
