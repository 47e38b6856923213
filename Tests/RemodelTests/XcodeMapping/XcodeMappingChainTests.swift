import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The corpus bundles that ship Xcode mapping models, migrated with generated data from their first
/// version to their last, step by step and in one run, with their mapping models in the mappings
/// folder. Without the apps' policy classes the step whose mapping model names classes is refused,
/// naming them; with Swift stand-ins registered under the class names every step migrates, its data
/// checked as it is written (``CorpusChain``), and both ways end with the same store.
@Suite(
    .tags(.corpus), .skippable(.corpus),
    .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
struct XcodeMappingChainTests {
    /// The refusal of the step from `version` when no policy is registered: `line N: message`.
    private func refusal(_ chain: CorpusChain, from version: String) async throws -> String {
        let refused = try await chain.run(stepByStep: true, from: version)
        #expect(refused.steps == [])
        #expect(refused.refusal?.code == .migrationNotPlannable)
        return refused.refusal.map { "line \($0.location?.line ?? 0): \($0.message)" } ?? "not refused"
    }

    /// Step by step and in one run from `from` to the last version: the steps' lines, once both runs
    /// are checked to succeed, find nothing wrong, and end with the same export.
    private func bothWays(_ chain: CorpusChain, from: String? = nil) async throws -> (steps: [String], export: String) {
        let stepByStep = try await chain.run(stepByStep: true, from: from)
        #expect(stepByStep.refusal == nil, "\(stepByStep.refusal.map { "\($0)" } ?? "")")
        #expect(stepByStep.problems == [])
        let once = try await chain.run(stepByStep: false, from: from)
        #expect(once.refusal == nil, "\(once.refusal.map { "\($0)" } ?? "")")
        let export = try CorpusChain.export(stepByStep.store, bundle: chain.bundle)
        expectSameText(try CorpusChain.export(once.store, bundle: chain.bundle), export)
        return (stepByStep.steps, export)
    }

    @Test func migrationDemoNeedsOrganismV2ToV3MigrationPolicy() async throws {
        var chain = CorpusChain(
            bundle: try XcodeCorpus.bundle("JohnEstropia__CoreStore", "MigrationDemo"),
            mappings: XcodeCorpus.folder("JohnEstropia__CoreStore"))
        #expect(
            try await refusal(chain, from: "MigrationDemoV2")
                == "line 52: step MigrationDemoV2 → MigrationDemoV3: the entity mapping OrganismToOrganism needs a Swift policy named 'CoreStoreDemo.OrganismV2ToV3MigrationPolicy' (line 52); Core Data runs those classes there: register Swift code for each with MigrationOptions.register(_:forClass:), or write the step as a Remodel mapping file"
        )
        let v3 = try #require(chain.bundle.version(named: "MigrationDemoV3"))
        chain.classPolicies["CoreStoreDemo.OrganismV2ToV3MigrationPolicy"] = CorpusChain.copying(v3) { organism in
            [
                "numberOfLimbs": organism["numberOfFlippers"],
                "hasVertebrae": .integer(organism["dna"] == .integer(1) ? 1 : 0),
            ]
        }
        let (steps, export) = try await bothWays(chain)
        #expect(
            steps == ["MigrationDemo → MigrationDemoV2: 2 objects", "MigrationDemoV2 → MigrationDemoV3: 2 objects"])
        // The policy made both organisms: numberOfLimbs from numberOfFlippers (0, the V2 default), hasVertebrae from dna.
        #expect(
            export.contains(
                #"{"_pk": 1, "dna": 1, "hasHead": true, "hasTail": true, "hasVertebrae": true, "numberOfLimbs": 0}"#))
        #expect(
            export.contains(
                #"{"_pk": 2, "dna": 2, "hasHead": false, "hasTail": false, "hasVertebrae": false, "numberOfLimbs": 0}"#)
        )
    }

    /// 44 versions, 43 steps; 2.53 → 2.54 through the Xcode mapping model, whose value is checked object by object.
    @Test func wireRunsItsWholeChain() async throws {
        let chain = CorpusChain(
            bundle: try XcodeCorpus.bundle("wireapp__wire-ios-data-model", "zmessaging"),
            mappings: XcodeCorpus.folder("wireapp__wire-ios-data-model"))
        let (steps, _) = try await bothWays(chain)
        #expect(steps.count == 43)
        #expect(steps.first == "zmessaging → zmessaging1.27: 26 objects")
        #expect(
            steps.filter { $0.contains("values of") } == [
                "zmessaging2.53.0 → zmessaging2.54.0: 24 objects, values of Conversation.mutedStatus = int($source.isSilenced) checked"
            ])
        #expect(steps.last == "zmessaging2.54.0 → zmessaging2.55.0: 24 objects")
    }

    @Test func sampleModelNeedsV2to3MakerPolicyAndRebuildsPreviousOwners() async throws {
        var chain = CorpusChain(
            bundle: try XcodeCorpus.bundle("alemar11__CoreDataPlus", "SampleModel"),
            mappings: XcodeCorpus.folder("alemar11__CoreDataPlus"))
        let refused = try await refusal(chain, from: "SampleModel2")
        #expect(
            refused.hasPrefix(
                "line 122: step SampleModel2 → SampleModel3: the entity mapping CarToCar needs a Swift policy named 'REPLACE_AT_RUNTIME.V2to3MakerPolicy' (line 122); the entity mapping LuxuryCarToLuxuryCar needs a Swift policy named 'REPLACE_AT_RUNTIME.V2to3MakerPolicy' (line 149); the entity mapping SportCarToSportCar needs a Swift policy named 'REPLACE_AT_RUNTIME.V2to3MakerPolicy' (line 54); "
            ))
        let v3 = try #require(chain.bundle.version(named: "SampleModel3"))
        chain.classPolicies["REPLACE_AT_RUNTIME.V2to3MakerPolicy"] = CorpusChain.copying(v3)
        let (steps, export) = try await bothWays(chain)
        #expect(steps == ["SampleModel → SampleModel2: 8 objects", "SampleModel2 → SampleModel3: 8 objects"])
        // Car.previousOwners is rebuilt from owner, Person.previousCars from cars: the same links, both ends; the
        // policy's objects keep their own owner.
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: [[String: Any]]])
        var carsOf: [Int: [Int]] = [:]
        var cars = 0
        for entity in ["Car", "SportCar", "LuxuryCar"] {
            for car in objects[entity] ?? [] {
                let owner = try #require(car["owner"] as? Int, "\(entity) \(car["_pk"] ?? "?") has an owner")
                #expect((car["previousOwners"] as? [Int]) == [owner], "\(entity) \(car["_pk"] ?? "?")")
                carsOf[owner, default: []] += (car["_pk"] as? Int).map { [$0] } ?? []
                cars += 1
            }
        }
        #expect(cars == 6)
        for person in objects["Person"] ?? [] {
            let key = person["_pk"] as? Int ?? 0
            #expect((person["previousCars"] as? [Int]) == (carsOf[key] ?? []).sorted(), "Person \(key)")
        }
    }

    /// DashSync 6 → 7 names three classes. With stand-ins registered, DSMerkleBlockEntity6To7MigrationPolicy
    /// makes the merkle blocks, which keep their own to-one links (`chain`, required), and the whole chain
    /// migrates, step by step and in one run alike.
    @Test func dashSyncNeedsThreePolicyClasses() async throws {
        var chain = CorpusChain(
            bundle: try XcodeCorpus.bundle("dashpay__dashsync-iOS", "DashSync"),
            mappings: XcodeCorpus.folder("dashpay__dashsync-iOS"))
        let refused = try await refusal(chain, from: "DashSync 6")
        for (name, line) in [
            ("DSMerkleBlockEntity6To7MigrationPolicy", 65), ("DSDeleteEntityMigrationPolicy", 662),
            ("DSAccountEntity6To7MigrationPolicy", 1432),
        ] {
            #expect(refused.contains("needs a Swift policy named '\(name)' (line \(line))"), "\(refused)")
        }
        let v7 = try #require(chain.bundle.version(named: "DashSync 7"))
        chain.classPolicies = [
            "DSDeleteEntityMigrationPolicy": EntityPolicy(destination: "") { _ in [] },
            "DSMerkleBlockEntity6To7MigrationPolicy": CorpusChain.copying(v7),
            "DSAccountEntity6To7MigrationPolicy": CorpusChain.copying(v7),
        ]
        let (steps, _) = try await bothWays(chain)
        #expect(
            steps == (1...5).map { "DashSync \($0) → DashSync \($0 + 1): 46 objects" }
                + (6...20).map { "DashSync \($0) → DashSync \($0 + 1): 36 objects" })
    }
}
