import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Every rule id a diagnostic can carry is a case of one enum, and each is documented.
struct DiagnosticRuleTests {
    @Test func everyRuleIsInTheValidateGuide() throws {
        let guide = try String(
            contentsOfFile: MigrationFixtures.packageRoot + "/docs/VALIDATE.md", encoding: .utf8)
        let missing = DiagnosticRule.allCases.filter { !guide.contains("| `\($0.rawValue)` |") }
        #expect(missing.map(\.rawValue) == [], "add a row for each to docs/VALIDATE.md")
    }

    @Test func everyValidationRuleHasItsSummaryOnce() {
        let ids = ValidationRule.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ValidationRule.summaries.count == ids.count)
    }
}
