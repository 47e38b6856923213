import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// Every `.xcmappingmodel` of the shared corpus, read for its bundle: which versions it maps, what
/// its entity mappings say beyond inference (translated expressions, relationships, policies), and
/// one of its expressions checked by value on generated data (mapping models with no attribute
/// expression are checked on data by ``XcodeMappingChainTests``).
@Suite(
    .tags(.corpus), .skippable(.corpus),
    .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
struct XcodeMappingCorpusTests {
    /// A mapping model read for a bundle, and the lines that say what it maps.
    private struct Read {
        var loaded: XcodeMappingLoader.Loaded
        var translation: XcodeMappingTranslation
        var mapping: MappingModel
        var bundle: ModelBundle

        var versions: String {
            let match = translation.match
            return
                "\(match.source.name) → \(match.destination.name) (\(match.sourceMethod.rawValue), \(match.destinationMethod.rawValue))"
        }

        var rules: [String] {
            translation.rules.map { rule in
                var parts = ["\(rule.rule.sourceEntity ?? "-") → \(rule.rule.destinationEntity ?? "-")"]
                if let policy = rule.policy { parts.append("policy \(policy.className)") }
                if let filter = rule.rule.filter { parts.append("where \(filter.text)") }
                parts += rule.rule.attributes.map { "\($0.name) = \($0.value.text)" }
                parts += rule.rule.relationships.map { "\($0.name) ← \($0.sourceRelationship ?? "nothing")" }
                return parts.joined(separator: "; ")
            }
        }

        var diagnostics: [String] { loaded.diagnostics.map { "\($0.severity) \($0.rule)" } }

        func entity(_ name: String) throws -> EntityMapping {
            try #require(mapping.entities.first { $0.destination == name })
        }
    }

    private func read(_ repository: String, _ name: String, bundle bundleName: String) throws -> Read {
        let bundle = try XcodeCorpus.bundle(repository, bundleName)
        let loaded = try #require(XcodeMappingLoader.load(path: XcodeCorpus.mapping(repository, name), bundle: bundle))
        return Read(
            loaded: loaded, translation: try #require(loaded.translation, "\(loaded.diagnostics)"),
            mapping: try #require(loaded.mapping),
            bundle: bundle)
    }

    @Test func evolutionDemoV1ToV2GivesNewAttributesTheirValuesAndNamesItsPolicy() throws {
        let read = try read(
            "JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V2.FromV1", bundle: "Advanced.EvolutionDemo.V1")
        #expect(read.versions == "Advanced.EvolutionDemo.V1 → Advanced.EvolutionDemo.V2 (by name, by name)")
        #expect(read.translation.model.entities.count == 1)
        #expect(
            read.rules == [
                "Creature → Creature; policy Advanced_EvolutionDemo_V2_FromV1MigrationPolicy; numberOfFlippers = $source.numberOfFlagella; hasHead = true"
            ])
        #expect(read.diagnostics == ["warning xcode-mapping-policy"])
        let creature = try read.entity("Creature")
        #expect(creature.policy?.className == "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy")
        #expect(creature.policy?.location.line == 50)
        // By value: numberOfFlippers is each creature's numberOfFlagella, hasHead is true.
        let store = try GeneratedStore(bundle: read.bundle, version: "Advanced.EvolutionDemo.V1")
        let match = read.translation.match
        let flagella = try store.rows(of: "Creature", at: match.source).map { $0["numberOfFlagella"] ?? .null }
        #expect(flagella.count == 4 && !flagella.contains(.null))
        #expect(
            try store.values(of: "numberOfFlippers", in: creature, from: match.source, to: match.destination)
                == flagella)
        #expect(
            try store.values(of: "hasHead", in: creature, from: match.source, to: match.destination)
                == Array(repeating: .integer(1), count: 4))
    }

    @Test func evolutionDemoV2ToV1GoesBackwardsAndIsNotUsed() throws {
        let read = try read(
            "JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V1.FromV2", bundle: "Advanced.EvolutionDemo.V1")
        #expect(read.versions == "Advanced.EvolutionDemo.V2 → Advanced.EvolutionDemo.V1 (by name, by name)")
        #expect(read.rules == ["Creature → Creature; numberOfFlagella = $source.numberOfFlippers"])
        #expect(read.loaded.isBackwards(in: read.bundle))
        let catalog = MappingCatalog(directory: XcodeCorpus.folder("JohnEstropia__CoreStore"), bundle: read.bundle)
        #expect(
            catalog.mappings.keys.map { "\($0.source) → \($0.destination)" } == [
                "Advanced.EvolutionDemo.V1 → Advanced.EvolutionDemo.V2"
            ])
        #expect(catalog.diagnostics.map(\.rule).sorted() == ["xcode-mapping-backwards", "xcode-mapping-policy"])
        let store = try GeneratedStore(bundle: read.bundle, version: "Advanced.EvolutionDemo.V2")
        let match = read.translation.match
        let flippers = try store.rows(of: "Creature", at: match.source).map { $0["numberOfFlippers"] ?? .null }
        #expect(
            try store.values(
                of: "numberOfFlagella", in: try read.entity("Creature"), from: match.source, to: match.destination)
                == flippers)
    }

    /// The file holds a second entity mapping object that nothing links to: Xcode left it over, and it is ignored.
    @Test func organismV2ToV3NeedsItsPolicyAndIgnoresTheUnlinkedEntityMapping() throws {
        let read = try read("JohnEstropia__CoreStore", "OrganismV2ToV3", bundle: "MigrationDemo")
        #expect(read.versions == "MigrationDemoV2 → MigrationDemoV3 (by name, by name)")
        #expect(read.translation.model.entities.count == 1)
        #expect(read.rules == ["Organism → Organism; policy CoreStoreDemo.OrganismV2ToV3MigrationPolicy"])
        // hasVertebrae is new and required with no default: inference cannot fill it, the policy does.
        let organism = try read.entity("Organism")
        #expect(organism.problems.isEmpty)
        #expect(read.diagnostics == ["warning xcode-mapping-policy"])
    }

    @Test func organismV3ToV2GoesBackwards() throws {
        let read = try read("JohnEstropia__CoreStore", "OrganismV3ToV2", bundle: "MigrationDemo")
        #expect(read.versions == "MigrationDemoV3 → MigrationDemoV2 (by name, by name)")
        #expect(read.rules == ["Organism → Organism; numberOfFlippers = $source.numberOfLimbs"])
        #expect(read.loaded.isBackwards(in: read.bundle))
        let store = try GeneratedStore(bundle: read.bundle, version: "MigrationDemoV3")
        let match = read.translation.match
        let limbs = try store.rows(of: "Organism", at: match.source).map { $0["numberOfLimbs"] ?? .null }
        #expect(
            try store.values(
                of: "numberOfFlippers", in: try read.entity("Organism"), from: match.source, to: match.destination)
                == limbs)
    }

    /// A Boolean given to an Integer 32 attribute: Core Data stored the NSNumber, Remodel writes `int(…)`.
    @Test func wire254TurnsIsSilencedIntoMutedStatus() throws {
        let read = try read("wireapp__wire-ios-data-model", "migration2.54", bundle: "zmessaging")
        #expect(read.versions == "zmessaging2.53.0 → zmessaging2.54.0 (by name, by name)")
        #expect(read.translation.model.entities.count == 17)
        #expect(read.rules == ["Conversation → Conversation; mutedStatus = int($source.isSilenced)"])
        #expect(read.diagnostics == [])
        let store = try GeneratedStore(bundle: read.bundle, version: "zmessaging2.53.0")
        let match = read.translation.match
        let silenced = try store.rows(of: "Conversation", at: match.source).map { $0["isSilenced"] ?? .null }
        #expect(Set(silenced) == [.integer(0), .integer(1)])
        #expect(
            try store.values(
                of: "mutedStatus", in: try read.entity("Conversation"), from: match.source, to: match.destination)
                == silenced)
    }

    @Test func dashSync6To7AddsSevenEntitiesAndNamesThreePolicyClasses() throws {
        let read = try read("dashpay__dashsync-iOS", "MappingFrom6To7Model", bundle: "DashSync")
        #expect(read.versions == "DashSync 6 → DashSync 7 (by name, by name)")
        #expect(read.translation.model.entities.count == 37)
        #expect(
            read.rules == [
                "DSMerkleBlockEntity → DSMerkleBlockEntity; policy DSMerkleBlockEntity6To7MigrationPolicy",
                "DSAccountEntity → DSAccountEntity; policy DSAccountEntity6To7MigrationPolicy",
                "- → DSBlockchainIdentityEntity",
                "- → DSCreditFundingTransactionEntity",
                "- → DSBlockchainIdentityUsernameEntity",
                "DSChainLockEntity → DSChainLockEntity; policy DSDeleteEntityMigrationPolicy",
                "DSMasternodeListEntity → DSMasternodeListEntity; policy DSDeleteEntityMigrationPolicy",
                "DSQuorumEntryEntity → DSQuorumEntryEntity; policy DSDeleteEntityMigrationPolicy",
                "DSSimplifiedMasternodeEntryEntity → DSSimplifiedMasternodeEntryEntity; policy DSDeleteEntityMigrationPolicy",
                "DSQuorumCommitmentTransactionEntity → DSQuorumCommitmentTransactionEntity; policy DSDeleteEntityMigrationPolicy",
                "- → DSDashpayUserEntity",
                "- → DSFriendRequestEntity",
                "- → DSBlockchainIdentityKeyPathEntity",
                "- → DSContractEntity",
            ])
        #expect(Set(read.mapping.entities.compactMap(\.policy?.className)).count == 3)
        // The entity mapping whose migrationpolicyclassname is empty (DSLocalMasternodeEntity) names no policy.
        #expect(try read.entity("DSLocalMasternodeEntity").policy == nil)
        #expect(read.diagnostics == Array(repeating: "warning xcode-mapping-policy", count: 7))
    }

    @Test func coreDataPlusV2ToV3RebuildsRelationshipsFromTheSourceRelationshipsTheyRead() throws {
        let read = try read("alemar11__CoreDataPlus", "V2toV3", bundle: "SampleModel")
        #expect(read.versions == "SampleModel2 → SampleModel3 (by name, by name)")
        #expect(read.translation.model.entities.count == 5)
        #expect(
            read.rules == [
                "Car → Car; policy REPLACE_AT_RUNTIME.V2to3MakerPolicy; previousOwners ← owner",
                "LuxuryCar → LuxuryCar; policy REPLACE_AT_RUNTIME.V2to3MakerPolicy; previousOwners ← owner",
                "Person → Person; previousCars ← cars",
                "SportCar → SportCar; policy REPLACE_AT_RUNTIME.V2to3MakerPolicy; previousOwners ← owner",
                "- → Maker",
            ])
        #expect(try read.entity("Car").relationship("previousOwners")?.source == "owner")
        #expect(try read.entity("Person").relationship("previousCars")?.source == "cars")
        #expect(read.diagnostics == Array(repeating: "warning xcode-mapping-policy", count: 3))
    }

    /// Every mapping model of the corpus validates without an error, each found for its own bundle among all of them.
    @Test func everyMappingModelValidatesWithoutErrors() throws {
        let names = [
            ("JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V1"),
            ("JohnEstropia__CoreStore", "Advanced.EvolutionDemo"),
            ("JohnEstropia__CoreStore", "MigrationDemo"), ("wireapp__wire-ios-data-model", "zmessaging"),
            ("dashpay__dashsync-iOS", "DashSync"),
            ("alemar11__CoreDataPlus", "SampleModel"), ("alemar11__CoreDataPlus", "SampleModel3"),
        ]
        var bundles: [String: ModelBundle] = [:]
        for (repository, name) in names { bundles[name] = try XcodeCorpus.bundle(repository, name) }
        var diagnostics: [Diagnostic] = []
        for (repository, name) in XcodeCorpus.all {
            diagnostics += XcodeMappingValidation.check(
                path: XcodeCorpus.mapping(repository, name), bundles: bundles, searched: [], remodelSteps: .init(),
                registeredPolicyClasses: [])
        }
        #expect(diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        #expect(
            Dictionary(grouping: diagnostics, by: \.rule).mapValues(\.count) == [
                "xcode-mapping-policy": 12, "xcode-mapping-backwards": 2,
            ])
        // With the classes registered, nothing is left but the two mapping models that go backwards.
        let classes: Set<String> = [
            "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy", "CoreStoreDemo.OrganismV2ToV3MigrationPolicy",
            "DSDeleteEntityMigrationPolicy",
            "DSMerkleBlockEntity6To7MigrationPolicy", "DSAccountEntity6To7MigrationPolicy",
            "REPLACE_AT_RUNTIME.V2to3MakerPolicy",
        ]
        let registered = XcodeCorpus.all.flatMap { repository, name in
            XcodeMappingValidation.check(
                path: XcodeCorpus.mapping(repository, name), bundles: bundles, searched: [], remodelSteps: .init(),
                registeredPolicyClasses: classes)
        }
        #expect(registered.map(\.rule) == ["xcode-mapping-backwards", "xcode-mapping-backwards"])
    }
}
