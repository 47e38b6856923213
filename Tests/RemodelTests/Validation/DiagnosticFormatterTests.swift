import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The text, JSON and SARIF output formats.
struct DiagnosticFormatterTests {
    private let diagnostics = [
        Diagnostic(
            .warning, rule: "no-inverse", message: "relationship 'A.b' has no inverse",
            at: SourceLocation(file: "Models/M.xcdatamodeld/M 2.xcdatamodel/contents", line: 9, column: 9)),
        Diagnostic(
            .error, rule: "missing-destination", message: "relationship \"A.c\" has no destination",
            at: SourceLocation(file: "Models/M.xcdatamodeld/M 2.xcdatamodel/contents", line: 4, column: 104)),
    ]

    private var report: ValidationReport { ValidationReport(diagnostics: diagnostics, modelCount: 1, versionCount: 2) }

    @Test func textIsOneSortedLinePerDiagnosticThenASummary() {
        #expect(
            report.formatted(as: .text) == """
                Models/M.xcdatamodeld/M 2.xcdatamodel/contents:4:104: error: relationship "A.c" has no destination [missing-destination]
                Models/M.xcdatamodeld/M 2.xcdatamodel/contents:9:9: warning: relationship 'A.b' has no inverse [no-inverse]
                Checked 1 model (2 versions): 1 error, 1 warning.

                """)
        #expect(
            ValidationReport(diagnostics: [], modelCount: 2, versionCount: 5).summary
                == "Checked 2 models (5 versions): no problems.")
    }

    @Test func jsonIsAnArrayWithKeysInAStableOrder() {
        #expect(
            report.formatted(as: .json) == """
                [
                  {
                    "file": "Models/M.xcdatamodeld/M 2.xcdatamodel/contents",
                    "line": 4,
                    "column": 104,
                    "severity": "error",
                    "rule": "missing-destination",
                    "message": "relationship \\"A.c\\" has no destination"
                  },
                  {
                    "file": "Models/M.xcdatamodeld/M 2.xcdatamodel/contents",
                    "line": 9,
                    "column": 9,
                    "severity": "warning",
                    "rule": "no-inverse",
                    "message": "relationship 'A.b' has no inverse"
                  }
                ]

                """)
        #expect(ValidationReport(diagnostics: [], modelCount: 0, versionCount: 0).formatted(as: .json) == "[]\n")
    }

    @Test func sarifHasTheShapeCodeScanningReads() throws {
        let text = report.formatted(as: .sarif)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let log = try #require(object as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.hasSuffix("sarif-2.1.0.json") == true)
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "remodel")
        #expect(driver["informationUri"] is String)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == ["missing-destination", "no-inverse"])
        #expect(((rules[0]["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["ruleId"] as? String } == ["missing-destination", "no-inverse"])
        #expect(results.compactMap { $0["level"] as? String } == ["error", "warning"])
        #expect(
            (results[0]["message"] as? [String: Any])?["text"] as? String == "relationship \"A.c\" has no destination")
        let location = try #require(
            (results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect(
            (location["artifactLocation"] as? [String: Any])?["uri"] as? String
                == "Models/M.xcdatamodeld/M%202.xcdatamodel/contents")
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 4)
        #expect(region["startColumn"] as? Int == 104)
        #expect(text == report.formatted(as: .sarif))
    }

    @Test func sarifMakesAbsolutePathsRelativeToTheBase() {
        #expect(
            DiagnosticFormatter.uri(for: "/repo/Models/A B/contents", relativeTo: "/repo") == "Models/A%20B/contents")
        #expect(
            DiagnosticFormatter.uri(for: "/elsewhere/contents", relativeTo: "/repo") == "file:///elsewhere/contents")
        #expect(DiagnosticFormatter.uri(for: "./Models/contents", relativeTo: "/repo") == "Models/contents")
    }
}
