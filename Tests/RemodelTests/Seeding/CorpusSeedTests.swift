import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// Generated data for every version of every real Xcode model in the shared corpus imports cleanly
/// (`Store.create` with the seed runs every import check) and exports back to the same bytes.
@Suite(.tags(.corpus), .skippable(.corpus))
struct CorpusSeedTests {
    @Test(.enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func everyVersionOfEveryModelImportsItsGeneratedData() throws {
        var search = ModelSearch()
        try search.add(ValidationSupport.corpus.path)
        var versions = 0
        var problems: [String] = []
        for model in search.models {
            let bundle = try #require(ModelReader.read(path: model.path).bundle, "\(model.path) does not read")
            for version in bundle.versions {
                let trip = try SeedSupport.roundTrip(bundle, version: version.name, objects: 4, seedNumber: 11)
                expectSameText(trip.exported, trip.generated)
                #expect(
                    trip.plan.objectCount > 0 || version.entities.allSatisfy(\.isAbstract),
                    "\(bundle.name) \(version.name)")
                problems += trip.plan.problems.map { "\(bundle.name) \(version.name): \($0)" }
                versions += 1
            }
        }
        #expect(versions == 113)
        // Every rule the generator could not satisfy is named; in the corpus only one remains: DashSync's local
        // masternodes need a provider registration transaction each, whose entity gets objects only once the
        // hierarchy of transactions is shared out.
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
