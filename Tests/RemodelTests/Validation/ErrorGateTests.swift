import Testing

@testable import Remodel
@testable import RemodelModel

/// The gate that refuses a model with errors (`ModelValidator.errors(in:)`) leaves warnings out without working
/// them out: it must find exactly the errors the whole validation finds. Generated models (odd names, unknown
/// deletion rules, missing destinations and inverses, composites that may not exist, bounds of every type) hold
/// many of both.
struct ErrorGateTests {
    @Test(arguments: 0..<60)
    func theGateFindsTheErrorsTheWholeValidationFinds(seed: UInt64) throws {
        var generator = ModelFileGenerator(seed: seed &+ 5000)
        let (_, xml) = generator.model()
        let (read, _) = ModelFileReader.read(bytes: Array(xml.utf8), path: "Gate/contents", versionName: "Gate")
        let version = try #require(read)
        var all = DiagnosticList()
        ModelValidator.validate(version, into: &all)
        let errors = all.items.filter { $0.severity == .error }.sorted()
        #expect(ModelValidator.errors(in: version) == errors, "seed \(seed):\n\(xml)")
    }

    @Test func theGeneratedModelsHoldErrorsAndWarnings() throws {
        var errors = 0
        var warnings = 0
        for seed in UInt64(0)..<60 {
            var generator = ModelFileGenerator(seed: seed &+ 5000)
            let (_, xml) = generator.model()
            let version = try #require(
                ModelFileReader.read(bytes: Array(xml.utf8), path: "Gate/contents", versionName: "Gate").0)
            var all = DiagnosticList()
            ModelValidator.validate(version, into: &all)
            errors += all.items.filter { $0.severity == .error }.count
            warnings += all.items.filter { $0.severity == .warning }.count
        }
        // The property above is about models that have both.
        #expect(errors > 60)
        #expect(warnings > 60)
    }
}
