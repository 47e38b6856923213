import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Two roads to one plan, for the shortcuts that make planning a long history cheaper (issue 29, session 10):
/// each is held, over random histories, to the plain computation it replaces.
///
/// - A chain's step plans, each carrying the tables it and the step before leave as they were as the step
///   before carried them, against each step planned alone.
/// - A version's layout from the layout of the version before, keeping the tables of unchanged hierarchies,
///   against the layout built afresh (session 11).
/// - The layout's tables, built by entity position with each ordered to-many's inverse found once, against the
///   tables built as before: by entity value, the inverse looked for again for every table.
/// - Inference that reuses the step before's copy of an entity unchanged in both steps, against inference of
///   each step alone.
/// - ``UnchangedTables/copiesEveryProperty(_:of:in:inOrder:)`` walking a copy's properties in order, against
///   the answer made of sets, on inferred mappings and on mappings changed so that the answer is no.
/// - The gate refusing a model with errors, passing by entities found clean in another version, against the gate
///   checking every version whole, on histories with errors (session 11).
/// - SQL names claimed with their case folded in place, against the folded string made as before.
/// - ``UnchangedTables`` starting from the step before's, and ``StorageChanges/followed(by:shortcuts:)`` keeping a
///   composed table the next step carries as it is, against each worked out whole; the names an expression reads,
///   found byte by byte in ASCII text, against the search by characters; a version's relationships stored as in the
///   version before, against the storage worked out afresh (session 12).
@Suite struct PlanningShortcutPropertyTests {
    /// Seeds run in the everyday suite; `REMODEL_PROPERTY_SEEDS` raises the count.
    static let seeds: [UInt64] = Array(
        1...UInt64(ProcessInfo.processInfo.environment["REMODEL_PROPERTY_SEEDS"].flatMap { Int($0) } ?? 40))

    /// Every version of random histories of both generators, each history's versions in order.
    private static func histories(seed: UInt64) throws -> [[ModelVersion]] {
        var random = RandomHistory(seed: seed)
        var versions = [try random.version(number: 1)]
        for number in 2...random.versionCount {
            random.mutate()
            versions.append(try random.version(number: number))
        }
        var generator = HistoryGenerator(seed: seed)
        let generated = try generator.history(versions: 12)
        return [versions, generated.parsed]
    }

    @Test func theLayoutIsTheOneBuiltEntityByEntity() throws {
        var tables = 0
        var orderColumns = 0
        for seed in Self.seeds {
            for versions in try Self.histories(seed: seed) {
                for version in versions {
                    let layout = StoreLayout(version: version)
                    let reference = StoreLayout.reference(version: version)
                    let name = "seed \(seed), \(version.name)"
                    #expect(layout.tables == reference.tables, "\(name): tables")
                    #expect(layout.tableIndexByEntity == reference.tableIndexByEntity, "\(name): tables by entity")
                    #expect(layout.columnByProperty == reference.columnByProperty, "\(name): columns")
                    #expect(layout.orderColumnByToOne == reference.orderColumnByToOne, "\(name): order columns")
                    #expect(layout.storageByProperty == reference.storageByProperty, "\(name): relationships")
                    #expect(layout.joinTables == reference.joinTables, "\(name): join tables")
                    #expect(layout.indexes == reference.indexes, "\(name): indexes")
                    tables += layout.tables.count
                    orderColumns += layout.orderColumnByToOne.count
                }
            }
        }
        // The histories have hierarchies and ordered to-manys, the parts the two roads build differently.
        #expect(tables > 40 * Self.seeds.count)
        #expect(orderColumns > Self.seeds.count)
    }

    /// A version laid out from the layout of the version before (or of any other version of the history) keeps the
    /// tables of the hierarchies it leaves alone; the layout is the one built afresh all the same.
    @Test func aLayoutFromAnotherVersionIsTheLayoutBuiltAfresh() throws {
        var keepable = 0
        var relationshipsAlike = 0
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            for versions in try Self.histories(seed: seed) {
                for index in versions.indices.dropFirst() {
                    // The version before, then one picked at random (ahead or behind, or the version itself).
                    let others = [versions[index - 1], versions[Int(random.next() % UInt64(versions.count))]]
                    for other in others {
                        let before = StoreLayout(version: other)
                        let layout = StoreLayout(version: versions[index], following: before)
                        let fresh = StoreLayout(version: versions[index])
                        if layout.storesRelationshipsAlike(before) { relationshipsAlike += 1 }
                        let name = "seed \(seed), \(other.name) → \(versions[index].name)"
                        #expect(layout.tables == fresh.tables, "\(name): tables")
                        #expect(layout.tableIndexByEntity == fresh.tableIndexByEntity, "\(name): tables by entity")
                        #expect(layout.columnByProperty == fresh.columnByProperty, "\(name): columns")
                        #expect(layout.columnsByEntity == fresh.columnsByEntity, "\(name): columns by entity")
                        #expect(layout.orderColumnByToOne == fresh.orderColumnByToOne, "\(name): order columns")
                        #expect(layout.storageByProperty == fresh.storageByProperty, "\(name): relationships")
                        #expect(layout.joinTables == fresh.joinTables, "\(name): join tables")
                        #expect(layout.indexes == fresh.indexes, "\(name): indexes")
                        #expect(layout.reservedNames == fresh.reservedNames, "\(name): names")
                        keepable += fresh.tables.filter { before.table(named: $0.name) == $0 }.count
                    }
                }
            }
        }
        // Most tables are laid out alike in the two versions: the shortcut is taken, not only the build.
        #expect(keepable > 40 * Self.seeds.count, "\(keepable) tables alike")
        // And many store their relationships as the version before: its relationship storage is taken (session 12).
        #expect(relationshipsAlike > 2 * Self.seeds.count, "\(relationshipsAlike) layouts storing relationships alike")
    }

    /// A to-one whose entity, relationships and table are as they were still moves to another column when a sibling
    /// gains an attribute of its name (attributes take their columns first): its storage, and its inverse's, are
    /// worked out again, not taken from the version before (session 12).
    @Test func aToOneMovedToAnotherColumnIsStoredAfresh() {
        func version(_ name: String, catAttributes: [Attribute]) -> ModelVersion {
            ModelVersion(
                name: name,
                entities: [
                    Entity(name: "Animal", attributes: [Attribute(name: "name", type: .string)]),
                    Entity(
                        name: "Dog", parentName: "Animal",
                        relationships: [Relationship(name: "owner", destinationEntity: "Person", inverseName: "dogs")]),
                    Entity(name: "Cat", parentName: "Animal", attributes: catAttributes),
                    Entity(
                        name: "Person",
                        relationships: [
                            Relationship(name: "dogs", destinationEntity: "Dog", inverseName: "owner", isToMany: true)
                        ]),
                ])
        }
        let plain = version("Plain", catAttributes: [])
        let named = version("Named", catAttributes: [Attribute(name: "owner", type: .string)])
        for (from, to) in [(plain, named), (named, plain)] {
            let before = StoreLayout(version: from)
            let layout = StoreLayout(version: to, following: before)
            let fresh = StoreLayout(version: to)
            #expect(!layout.storesRelationshipsAlike(before), "\(from.name) → \(to.name)")
            #expect(layout.storageByProperty == fresh.storageByProperty, "\(from.name) → \(to.name): relationships")
        }
        #expect(
            StoreLayout(version: plain).storage(of: "owner", in: "Dog") == .column(table: "Animal", column: "owner"))
        #expect(
            StoreLayout(version: named).storage(of: "owner", in: "Dog") == .column(table: "Animal", column: "owner_Dog")
        )
        // The same version after itself stores its relationships alike.
        #expect(
            StoreLayout(version: named, following: StoreLayout(version: named)).storesRelationshipsAlike(
                StoreLayout(version: named)))
    }

    /// An entity defined alike in two versions still loses its to-one column when the relationship's destination is
    /// gone (a model Remodel refuses, but a layout is built for any model), and gains it when the destination comes.
    @Test func aKeptTableFollowsItsToOnesDestinations() {
        let owner = Entity(
            name: "Owner", attributes: [Attribute(name: "name", type: .string)],
            relationships: [Relationship(name: "pet", destinationEntity: "Pet")])
        let pet = Entity(name: "Pet", attributes: [Attribute(name: "name", type: .string)])
        let with = ModelVersion(name: "With", entities: [owner, pet])
        let without = ModelVersion(name: "Without", entities: [owner])
        for (from, to) in [(with, without), (without, with)] {
            let layout = StoreLayout(version: to, following: StoreLayout(version: from))
            let fresh = StoreLayout(version: to)
            #expect(layout.tables == fresh.tables, "\(from.name) → \(to.name): tables")
            #expect(layout.columnByProperty == fresh.columnByProperty, "\(from.name) → \(to.name): columns")
        }
        #expect(StoreLayout(version: with).columnName(of: "pet", in: "Owner") == "pet")
        #expect(StoreLayout(version: without).columnName(of: "pet", in: "Owner") == nil)
    }

    /// The gate that refuses a model with errors, passing by the entities it found clean in an earlier version of
    /// the history (the same text, the same ancestors' texts), against the gate checking each version whole: the same
    /// errors, messages and positions, on histories with errors written into random runs of versions (a reserved or
    /// repeated property name, a default that does not parse, a missing parent or destination, a constraint on a
    /// missing property).
    @Test func theGatePassingCleanEntitiesByFindsEveryError() throws {
        var passed = 0
        var errors = 0
        var rules: Set<String> = []
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed &+ 1000)
            var generator = HistoryGenerator(seed: seed)
            var texts = try generator.history(versions: 12).versions.map(\.model.xml)
            // A few mistakes, each written into a run of consecutive versions (a mistake often outlives its version).
            // The first, always: a parent's change that makes an error in a child whose own text is as it was.
            for round in 0..<4 {
                let kind = round == 0 ? 6 : Int(random.next() % 7)
                let start = Int(random.next() % UInt64(texts.count))
                let end = min(texts.count, start + 1 + Int(random.next() % 4))
                let pick = random.next()
                for index in start..<end { texts[index] = Self.inject(kind, pick, into: texts[index]) }
            }
            var clean = ModelValidator.CleanEntities()
            for (index, text) in texts.enumerated() {
                let xml = """
                    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    \(text)
                    </model>
                    """
                let (read, _) = ModelFileReader.read(
                    bytes: Array(xml.utf8), path: "V\(index + 1)/contents", versionName: "V\(index + 1)")
                guard let version = read else { continue }
                #expect(!version.entityTexts.isEmpty, "seed \(seed), V\(index + 1): texts")
                passed += version.entities.filter { clean.passes($0, in: version) }.count
                let fast = ModelValidator.errors(in: version, clean: &clean)
                let whole = ModelValidator.errors(in: version)
                #expect(fast == whole, "seed \(seed), V\(index + 1)")
                errors += whole.count
                rules.formUnion(whole.map(\.rule))
            }
        }
        // Most entities are passed by, and the histories have errors to find.
        #expect(passed > 5 * Self.seeds.count, "\(passed) entities passed by")
        #expect(errors > 2 * Self.seeds.count, "\(errors) errors")
        #expect(rules.count >= 6, "\(rules.sorted())")
    }

    /// A mistake of kind `kind` written into a version's entities, where `pick` chooses.
    private static func inject(_ kind: Int, _ pick: UInt64, into text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        func choose(_ test: (String) -> Bool) -> Int? {
            let matching = lines.indices.filter { test(lines[$0]) }
            return matching.isEmpty ? nil : matching[Int(pick % UInt64(matching.count))]
        }
        switch kind {
        case 0:  // A reserved property name.
            if let line = choose({ $0.contains("<attribute name=\"") }) {
                lines[line] = lines[line].replacingOccurrences(of: "<attribute name=\"", with: "<attribute name=\"_")
            }
        case 1:  // A property declared twice.
            if let line = choose({ $0.contains("<attribute ") }) { lines.insert(lines[line], at: line) }
        case 2:  // A default that does not parse.
            if let line = choose({ $0.contains("attributeType=\"Integer") }) {
                lines[line] = lines[line].replacingOccurrences(
                    of: " attributeType=", with: " defaultValueString=\"many\" attributeType=")
            }
        case 3:  // A parent that does not exist.
            if let line = choose({ $0.hasPrefix("<entity ") }) {
                lines[line] = lines[line].replacingOccurrences(
                    of: " representedClassName=", with: " parentEntity=\"Nowhere\" representedClassName=")
            }
        case 4:  // A destination that does not exist.
            if let line = choose({ $0.contains("destinationEntity=\"") }) {
                lines[line] = lines[line].replacingOccurrences(
                    of: "destinationEntity=\"", with: "destinationEntity=\"Gone")
            }
        case 5:  // A uniqueness constraint on a property that does not exist.
            if let line = choose({ $0 == "</entity>" }) {
                lines.insert(
                    "    <uniquenessConstraints><uniquenessConstraint><constraint value=\"nothing\"/></uniquenessConstraint></uniquenessConstraints>",
                    at: line)
            }
        default:  // A parent given an attribute its child declares: the child's text is as it was, its error new.
            guard let child = choose({ $0.contains("parentEntity=\"") && !$0.contains("Nowhere") }),
                let parentName = Self.value(of: "parentEntity", in: lines[child]),
                let parent = lines.firstIndex(where: { $0.hasPrefix("<entity name=\"\(parentName)\" ") })
            else { break }
            let body = lines[(child + 1)...].prefix { $0 != "</entity>" }
            guard let attribute = body.first(where: { $0.contains("<attribute ") }),
                let name = Self.value(of: "name", in: attribute)
            else { break }
            lines.insert("    <attribute name=\"\(name)\" optional=\"YES\" attributeType=\"String\"/>", at: parent + 1)
        }
        return lines.joined(separator: "\n")
    }

    /// The value of an XML attribute written on a line, as the generator writes them (`key="value"`).
    private static func value(of key: String, in line: String) -> String? {
        guard let start = line.range(of: " \(key)=\"") else { return nil }
        return String(line[start.upperBound...].prefix { $0 != "\"" })
    }

    /// An unchanged table whose to-one leads to a changed table is left as it was when the target's objects all
    /// arrive under their keys as kinds of the target, and analysed when they arrive as another kind: the mapping
    /// sends `Dog`s to `Cat` in the same table, and `Owner.pet`'s links would name cats.
    @Test func aToOneIntoAChangedTableKeepsItsTableOnlyWhenItsLinksSurvive() throws {
        func entities(catAttribute: String) -> String {
            """
            <entity name="Animal" representedClassName="Animal"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Cat" representedClassName="Cat" parentEntity="Animal">\(catAttribute)</entity>
            <entity name="Dog" representedClassName="Dog" parentEntity="Animal"><attribute name="bark" optional="YES" attributeType="String"/></entity>
            <entity name="Owner" representedClassName="Owner"><attribute name="name" optional="YES" attributeType="String"/><relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Dog"/></entity>
            """
        }
        let source = try makeVersion("Pets", entities(catAttribute: ""))
        let destination = try makeVersion(
            "Pets 2", entities(catAttribute: #"<attribute name="meow" optional="YES" attributeType="String"/>"#))
        let (sourceLayout, destinationLayout) = (StoreLayout(version: source), StoreLayout(version: destination))
        let inferred = MappingInference.infer(from: source, to: destination, modelName: "Pets")
        var dogsToCats = inferred
        for index in dogsToCats.entities.indices where dogsToCats.entities[index].source == "Dog" {
            dogsToCats.entities[index].destination = "Cat"
        }
        for (mapping, survives) in [(inferred, true), (dogsToCats, false)] {
            let keys = KeyPlan(mapping: mapping, source: sourceLayout, destination: destinationLayout)
            let unchanged = UnchangedTables(
                mapping: mapping, source: sourceLayout, destination: destinationLayout, keys: keys, policies: [])
            #expect(!unchanged.tables.contains("Animal"), "the step changes Cat")
            #expect(unchanged.tables.contains("Owner") == survives, "Owner, links surviving: \(survives)")
            // What the analysis of every table does with Owner: the same.
            let analysed = StorageChanges(
                analysis: StepStorageAnalysis(
                    step: MigrationStep(source: source, destination: destination, mapping: mapping),
                    source: sourceLayout, destination: destinationLayout, keys: keys, policies: []))
            let carriedAsItIs = analysed.carriedTables["Owner"].map { carried in
                carried.droppedColumns.isEmpty
                    && carried.columns.allSatisfy { $0.value.column == $0.key && $0.value.fills.isEmpty }
            }
            // (Rebuilt, nil, when the links do not survive.)
            #expect((carriedAsItIs ?? false) == survives, "Owner carried as it is by the analysis")
        }
    }

    /// Each step of a history, with its inferred mapping.
    private static func inferredSteps(_ versions: [ModelVersion]) -> [MigrationStep] {
        zip(versions, versions.dropFirst()).map { source, destination in
            MigrationStep(
                source: source, destination: destination,
                mapping: MappingInference.infer(from: source, to: destination, modelName: "History"))
        }
    }

    @Test func aChainPlansEachStepAsItIsPlannedAlone() throws {
        var reused = 0
        var survivingLinks = 0
        for seed in Self.seeds {
            for versions in try Self.histories(seed: seed) {
                let steps = Self.inferredSteps(versions)
                let chained = StepPlan.chain(steps) { _ in [] }
                for (index, (plan, step)) in zip(chained, steps).enumerated() {
                    let alone = StepPlan(
                        step: step, sourceLayout: StoreLayout(version: step.source),
                        destinationLayout: StoreLayout(version: step.destination), policies: [])
                    let name = "seed \(seed), \(plan.name)"
                    #expect(plan.destinationLayout.tables == alone.destinationLayout.tables, "\(name): tables")
                    #expect(plan.sourceLayout.tables == alone.sourceLayout.tables, "\(name): source tables")
                    #expect(plan.changes == alone.changes, "\(name): changes")
                    #expect(plan.unchangedTables == alone.unchangedTables, "\(name): unchanged tables")
                    #expect(plan.losses == alone.losses, "\(name): losses")
                    #expect(plan.checks.asksTheSameChecks(as: alone.checks), "\(name): checks")
                    if index > 0 {
                        reused += plan.unchangedTables.intersection(chained[index - 1].unchangedTables).count
                    }
                    // Unchanged tables whose to-one leads to a table the step changes, whose objects keep their keys.
                    for table in plan.destinationLayout.tables where plan.unchangedTables.contains(table.name) {
                        let leadsToChanged = table.columns.contains { column in
                            guard case .toOne(_, _, let target) = column.content,
                                let targetTable = plan.destinationLayout.table(forEntity: target)
                            else { return false }
                            return !plan.unchangedTables.contains(targetTable.name)
                        }
                        if leadsToChanged { survivingLinks += 1 }
                    }
                }
            }
        }
        // Most tables are left as they were by two steps in a row: their carry is the step before's.
        #expect(reused > 10 * Self.seeds.count, "\(reused) carries reused")
        // And some are left so although a to-one leads to a table the step changes (debug builds compare each step
        // with its analysis of every table).
        #expect(survivingLinks > Self.seeds.count, "\(survivingLinks) tables whose links survive")
    }

    @Test func inferenceReusingTheStepBeforesCopiesInfersEachStepAsAlone() throws {
        var reused = 0
        for seed in Self.seeds {
            for versions in try Self.histories(seed: seed) {
                var memo = InferenceMemo()
                for (source, destination) in zip(versions, versions.dropFirst()) {
                    let previous = memo.copies
                    let chained = MappingInference.infer(
                        from: source, to: destination, modelName: "History", memo: &memo)
                    let alone = MappingInference.infer(from: source, to: destination, modelName: "History")
                    #expect(chained == alone, "seed \(seed), \(source.name) → \(destination.name)")
                    reused += memo.copies.filter { previous[$0.key] != nil }.count
                }
            }
        }
        #expect(reused > 10 * Self.seeds.count, "\(reused) copies reused")
    }

    @Test func aCopyIsRecognisedInOrderAsWithSets() throws {
        var yes = 0
        var no = 0
        var walked = 0
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            for versions in try Self.histories(seed: seed) {
                for (source, destination) in zip(versions, versions.dropFirst()) {
                    let mapping = MappingInference.infer(from: source, to: destination, modelName: "History")
                    let layout = StoreLayout(version: destination)
                    for entityMapping in mapping.entities {
                        guard let name = entityMapping.destination, let entity = destination.entity(named: name)
                        else { continue }
                        for variant in Self.variants(of: entityMapping, random: &random) {
                            let fast = UnchangedTables.copiesEveryProperty(variant, of: entity, in: layout)
                            let full = UnchangedTables.copiesEveryProperty(
                                variant, of: entity, in: layout, inOrder: false)
                            #expect(fast == full, "seed \(seed), \(name): \(variant)")
                            if fast { yes += 1 } else { no += 1 }
                            if UnchangedTables.copiesInOrder(variant, of: entity, in: destination) != nil {
                                walked += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(yes > 10 * Self.seeds.count && no > 10 * Self.seeds.count, "\(yes) copies, \(no) not")
        #expect(walked > 10 * Self.seeds.count, "\(walked) answered in order")
    }

    /// The mapping and copies of it changed so that it copies less, or lists its properties in another order.
    private static func variants(of mapping: EntityMapping, random: inout SplitMix64) -> [EntityMapping] {
        var result = [mapping]
        if !mapping.attributes.isEmpty {
            let index = Int(random.next() % UInt64(mapping.attributes.count))
            var other = mapping
            other.attributes[index].sourceAttribute = "elsewhere"
            result.append(other)
            other = mapping
            other.attributes[index].value = ValueExpression("$source.\(mapping.attributes[index].destination)x")
            result.append(other)
            other = mapping
            other.attributes.append(mapping.attributes[index])
            result.append(other)
            other = mapping
            other.attributes[index] = mapping.attributes[0]
            result.append(other)
            other = mapping
            other.attributes.reverse()
            result.append(other)
        }
        if !mapping.relationships.isEmpty {
            let index = Int(random.next() % UInt64(mapping.relationships.count))
            var other = mapping
            other.relationships[index].source = nil
            result.append(other)
            other = mapping
            other.relationships.reverse()
            result.append(other)
            other = mapping
            other.relationships.removeLast()
            result.append(other)
        }
        return result
    }

    /// ``UnchangedTables`` starting from what the step before found (an entity it copied under the same mapping,
    /// left as it is here with its ancestors, is not asked again) against ``UnchangedTables`` worked out alone. The
    /// steps' mappings are inferred with the chain's memo (as a migration infers them), and some are changed: an
    /// entity's mapping into a variant that copies less, or into the step before's mapping of it, which stays the
    /// same value while its ancestors change (session 12).
    @Test func theUnchangedEntitiesStartingFromTheStepBeforeAreThoseFoundAlone() throws {
        var reused = 0
        var variants = 0
        var ancestorsChanged = 0
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed &+ 7)
            for versions in try Self.histories(seed: seed) {
                var memo = InferenceMemo()
                var previous: UnchangedTables?
                var previousMapping: MappingModel?
                for (source, destination) in zip(versions, versions.dropFirst()) {
                    var mapping = MappingInference.infer(
                        from: source, to: destination, modelName: "History", memo: &memo)
                    for index in mapping.entities.indices where random.next() % 4 == 0 {
                        let entityMapping = mapping.entities[index]
                        guard let name = entityMapping.destination, let entity = destination.entity(named: name) else {
                            continue
                        }
                        if entity.parentName != nil,
                            let earlier = previousMapping?.entities.first(where: { $0.destination == name }),
                            earlier.source == entityMapping.source
                        {
                            mapping.entities[index] = earlier
                            let ancestors = destination.ancestors(of: entity)
                            if previous?.copiedMappings[name] == earlier,
                                ancestors.contains(where: { ancestor in
                                    source.entity(named: ancestor.name).map {
                                        !destination.hasSameDefinition(of: ancestor, as: $0, in: source)
                                    } ?? true
                                })
                            {
                                ancestorsChanged += 1
                            }
                        } else {
                            let options = Self.variants(of: entityMapping, random: &random)
                            mapping.entities[index] = options[Int(random.next() % UInt64(options.count))]
                            variants += 1
                        }
                    }
                    let (sourceLayout, destinationLayout) = (
                        StoreLayout(version: source), StoreLayout(version: destination)
                    )
                    let keys = KeyPlan(mapping: mapping, source: sourceLayout, destination: destinationLayout)
                    let chained = UnchangedTables(
                        mapping: mapping, source: sourceLayout, destination: destinationLayout, keys: keys,
                        policies: [],
                        previous: previous)
                    let alone = UnchangedTables(
                        mapping: mapping, source: sourceLayout, destination: destinationLayout, keys: keys, policies: []
                    )
                    let name = "seed \(seed), \(source.name) → \(destination.name)"
                    #expect(chained.entities == alone.entities, "\(name): entities")
                    #expect(chained.tables == alone.tables, "\(name): tables")
                    #expect(chained.joins == alone.joins, "\(name): joins")
                    #expect(chained.copiedMappings == alone.copiedMappings, "\(name): copied")
                    reused += chained.copiedMappings.filter { previous?.copiedMappings[$0.key] == $0.value }.count
                    previous = chained
                    previousMapping = mapping
                }
            }
        }
        #expect(reused > 10 * Self.seeds.count, "\(reused) entities found copied by the step before")
        #expect(variants > 10 * Self.seeds.count, "\(variants) mappings changed")
        #expect(ancestorsChanged > 0, "\(ancestorsChanged) mappings kept while an ancestor changed")
    }

    /// ``StorageChanges/followed(by:)`` keeping the composed table as it is when the next step carries it as it is,
    /// against the composition column by column, over every run of steps of a chain, from each step (session 12).
    @Test func composingChangesKeepingWhatTheNextStepLeavesIsComposingThemWhole() throws {
        var kept = 0
        var tables = 0
        for seed in Self.seeds {
            for versions in try Self.histories(seed: seed) {
                let steps = Self.inferredSteps(versions)
                let plans = StepPlan.chain(steps) { _ in [] }
                for start in plans.indices {
                    var fast = plans[start].changes
                    var full = fast
                    for plan in plans[(start + 1)...] {
                        for later in plan.changes.carriedTables.values
                        where later.carriesEveryColumnAsItIs && fast.carriedTables[later.source]?.isComposed == true {
                            kept += 1
                        }
                        fast = fast.followed(by: plan.changes)
                        full = full.followed(by: plan.changes, shortcuts: false)
                        #expect(fast == full, "seed \(seed), \(plans[start].name) to \(plan.name)")
                        #expect(
                            fast.writtenTables(of: plan.destinationLayout)
                                == full.writtenTables(of: plan.destinationLayout))
                        tables += full.carriedTables.count
                    }
                }
            }
        }
        #expect(kept > tables / 4, "\(kept) of \(tables) composed tables kept as they were")
    }

    /// The names an expression reads after `$source.`, read by bytes where they are ASCII, against a search by
    /// characters (Foundation's, the road it replaced), on random texts of names, prefixes cut short, punctuation
    /// and characters that are not ASCII (letters, digits, a combining accent, CR LF) (session 12). Texts where a
    /// combining mark follows the marker's `.` are left out: Foundation's search takes `.\u{301}` for another
    /// character, and no expression is written so.
    @Test func theNamesAnExpressionReadsAreFoundByByteAsByCharacter() {
        let pieces = [
            "$source.", "$source", "source.", "$", ".", "_", "a", "Z", "value12", "7", " ", "(", "+", "é", "e\u{301}",
            "\u{301}", "\r\n", "٣", "名", "K",
        ]
        func byCharacter(_ text: String) -> Set<String> {
            var names: Set<String> = []
            var rest = Substring(text)
            while let range = rest.range(of: "$source.") {
                let name = rest[range.upperBound...].prefix { $0 == "_" || $0.isLetter || $0.isNumber }
                if !name.isEmpty { names.insert(String(name)) }
                rest = rest[range.upperBound...]
            }
            return names
        }
        var compared = 0
        var found = 0
        var throughCharacters = 0
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            for _ in 0..<200 {
                let count = Int(random.next() % 12)
                let text = (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
                guard !text.contains("$source.\u{301}") else { continue }
                let names = DataLoss.firstNames(in: text)
                #expect(names == byCharacter(text), "\(Array(text.unicodeScalars))")
                if names.contains(where: { !$0.utf8.allSatisfy { $0 < 0x80 } }) { throughCharacters += 1 }
                compared += 1
                found += names.count
            }
        }
        #expect(compared > 150 * Self.seeds.count && found > 20 * Self.seeds.count, "\(compared) texts, \(found) names")
        #expect(throughCharacters > 0, "names read by characters")
    }

    @Test func namesAreClaimedAsWithTheFoldedString() {
        let pieces = ["a", "A", "id", "ID", "Id", "é", "e\u{301}", "\u{212A}", "K", "k", "_", "ß", "Ω", "name_table"]
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            var allocator = NameAllocator(reserved: ["_pk", "_entity"])
            var reference = ReferenceNameAllocator(reserved: ["_pk", "_entity"])
            for _ in 0..<200 {
                var name = ""
                for _ in 0...(random.next() % 3) { name += pieces[Int(random.next() % UInt64(pieces.count))] }
                let qualifier = pieces[Int(random.next() % UInt64(pieces.count))]
                #expect(allocator.claim(name, qualifier: qualifier) == reference.claim(name, qualifier: qualifier))
            }
        }
    }
}

/// ``NameAllocator`` as it was: the folded name made as a string from an array of bytes.
private struct ReferenceNameAllocator {
    private var taken: Set<String> = []

    init(reserved: [String]) {
        for name in reserved { taken.insert(Self.key(name)) }
    }

    mutating func claim(_ name: String, qualifier: String) -> String {
        if taken.insert(Self.key(name)).inserted { return name }
        let base = "\(name)_\(qualifier)"
        if taken.insert(Self.key(base)).inserted { return base }
        var number = 2
        while !taken.insert(Self.key("\(base)_\(number)")).inserted { number += 1 }
        return "\(base)_\(number)"
    }

    private static func key(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

extension StoreLayout {
    /// The layout with its tables built as before session 10: entity values from `hierarchy(of:)` and
    /// `rootEntities`, and every ordered to-many's inverse looked for again for each table.
    static func reference(version: ModelVersion) -> StoreLayout {
        var layout = StoreLayout(version: version)
        layout.tables = []
        layout.joinTables = []
        layout.indexes = []
        layout.tableIndexByEntity = [:]
        layout.storageByProperty = [:]
        layout.columnsByEntity = [:]
        layout.orderColumnByToOne = [:]
        layout.reservedNames = NameAllocator()
        layout.referenceBuildTables()
        layout.buildRelationshipStorage()
        layout.buildIndexes()
        return layout
    }

    private mutating func referenceBuildTables() {
        var names = NameAllocator()
        var kindsByEntity: [String: [String]] = [:]
        func kinds(of entity: Entity) -> [String] {
            if let known = kindsByEntity[entity.name] { return known }
            let kinds = version.hierarchy(of: entity).map(\.name)
            kindsByEntity[entity.name] = kinds
            return kinds
        }
        func related(_ first: String, _ second: String) -> Bool {
            guard let a = version.entity(named: first), let b = version.entity(named: second) else { return false }
            return version.entity(a, isKindOf: b.name) || version.entity(b, isKindOf: a.name)
        }
        func setColumn(_ column: String, for property: String, kinds: [String]) {
            for kind in kinds { columnsByEntity[kind, default: [:]][property] = column }
        }
        let orderedToManys = version.entities.flatMap { owner in
            owner.relationships.filter { $0.isToMany && $0.isOrdered && isStored($0) }.map { (owner, $0) }
        }
        for root in version.rootEntities {
            let hierarchy = version.hierarchy(of: root)
            let tableName = names.claim(root.name, qualifier: "table")
            var columns = [
                Column(name: StoreColumn.pk, declaredType: "INTEGER", content: .primaryKey),
                Column(name: StoreColumn.entity, declaredType: "TEXT", content: .entityName),
            ]
            var columnNames = NameAllocator(reserved: [StoreColumn.pk, StoreColumn.entity])
            for entity in hierarchy {
                for attribute in entity.attributes where attribute.isStored {
                    let declaredType = Self.declaredType(of: attribute.type)
                    if let shared = columns.first(where: { column in
                        guard column.name == attribute.name, case .attribute(let other, _, _) = column.content else {
                            return false
                        }
                        return column.declaredType == declaredType && !related(other, entity.name)
                    }) {
                        setColumn(shared.name, for: attribute.name, kinds: kinds(of: entity))
                        continue
                    }
                    let name = columnNames.claim(attribute.name, qualifier: entity.name)
                    let content = Column.Content.attribute(
                        entity: entity.name, name: attribute.name, type: attribute.type)
                    columns.append(Column(name: name, declaredType: declaredType, content: content))
                    setColumn(name, for: attribute.name, kinds: kinds(of: entity))
                }
            }
            for entity in hierarchy {
                for relationship in entity.relationships where !relationship.isToMany && isStored(relationship) {
                    let name = columnNames.claim(relationship.name, qualifier: entity.name)
                    let content = Column.Content.toOne(
                        entity: entity.name, relationship: relationship.name,
                        destination: relationship.destinationEntity ?? "")
                    columns.append(Column(name: name, declaredType: "INTEGER", content: content))
                    setColumn(name, for: relationship.name, kinds: kinds(of: entity))
                }
            }
            let members = Set(hierarchy.map(\.name))
            for (owner, relationship) in orderedToManys {
                guard let inverse = storedInverse(of: relationship, in: owner.name), !inverse.isToMany,
                    let destination = relationship.destinationEntity.flatMap(version.entity(named:))
                else { continue }
                let inverseOwner = version.declaringEntity(of: inverse, in: destination)
                guard members.contains(inverseOwner.name),
                    let inverseColumn = columnsByEntity[inverseOwner.name]?[inverse.name]
                else { continue }
                let name = columnNames.claim(
                    Self.orderColumnName(toOneColumn: inverseColumn), qualifier: inverseOwner.name)
                let content = Column.Content.order(
                    owner: owner.name, relationship: relationship.name, inverseColumn: inverseColumn)
                columns.append(Column(name: name, declaredType: "INTEGER", content: content))
                orderColumnByToOne[PropertyKey(entity: inverseOwner.name, property: inverse.name)] = name
            }
            for entity in hierarchy { tableIndexByEntity[entity.name] = tables.count }
            tables.append(Table(name: tableName, entities: hierarchy.map(\.name), columns: columns))
        }
        reservedNames = names
    }
}
