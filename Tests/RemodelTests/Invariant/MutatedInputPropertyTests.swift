import Foundation
import RemodelTesting
import Testing

@testable import Remodel
@testable import RemodelModel

/// A write that would break the invariant is refused before anything is written (issue 40 item 2): the seed
/// generator's objects for a model, changed at random — a value of another type, out of its bounds, at an edge or
/// null; a link to no object, to an object of another entity or to one already in the store, twice; a `_pk` taken
/// or left out; a key unknown or missing; an object copied (uniqueness) or removed (links to it dangle) — given to
/// `create --seed` and to `import` into a store that already holds the seed generator's objects of another seed.
/// Each path either refuses, naming the entity, with nothing written (no file made; the same schema and export),
/// or takes the data and leaves a store that passes the full check and whose export imports back.
///
/// The models: the fixtures with bounds, regular expressions, uniqueness, hierarchies, composites, derived and
/// transformable attributes (those ``SeededModelsCheckTests`` seeds), and a random history's first or last version
/// (``HistoryGenerator``). `REMODEL_MUTATED_INPUT_COUNT` sets how many seeds run (48 by default),
/// `REMODEL_MUTATED_INPUT_SEED` the first.
@Suite(.tags(.slow), .skippable(.slow))
struct MutatedInputPropertyTests {
    static let firstSeed =
        ProcessInfo.processInfo.environment["REMODEL_MUTATED_INPUT_SEED"].flatMap { UInt64($0) } ?? 0x1A_0000
    static let count = ProcessInfo.processInfo.environment["REMODEL_MUTATED_INPUT_COUNT"].flatMap { Int($0) } ?? 48
    static let groups: [[UInt64]] = {
        let seeds = (0..<UInt64(count)).map { firstSeed + $0 }
        let width = 4
        return (0..<width).map { group in seeds.enumerated().filter { $0.offset % width == group }.map(\.element) }
            .filter { !$0.isEmpty }
    }()

    static let fixtures = [
        "Models/Library.xcdatamodeld", "Models/Diligence.xcdatamodeld",
        "Tests/RemodelTests/Fixtures/Store/Everything.xcdatamodel",
        "Tests/RemodelTests/Fixtures/Generation/Rules.xcdatamodel",
        "Tests/RemodelTests/Fixtures/Generation/Names.xcdatamodel",
    ]

    /// Where the `_pk` of the changed objects start: the objects already in the store have smaller ones.
    static let offset: Int64 = 1000

    @Test(arguments: groups) func aWriteThatBreaksTheInvariantIsRefusedWithNothingWritten(seeds: [UInt64]) throws {
        var tally = Tally()
        for seed in seeds {
            do {
                try check(seed: seed, tally: &tally)
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
        #expect(tally.refused > 0 && tally.taken > 0, "every case went one way: \(tally)")
    }

    /// How the cases went, to see that the space is covered both ways.
    struct Tally: CustomStringConvertible {
        var refused = 0
        var taken = 0
        var description: String { "\(refused) refused, \(taken) taken" }
    }

    func check(seed: UInt64, tally: inout Tally) throws {
        var random = SplitMix64(seed: seed)
        let folder = try TemporaryFolder()
        let (bundle, versionName) = try Self.model(seed: seed, random: &random, in: folder)
        let version = try bundle.loadVersion(named: versionName)
        // The store the import goes into, holding objects of another seed.
        let base = folder.file("base.json")
        _ = try SeedGenerator(bundle: bundle, version: versionName).write(objects: 3, seedNumber: seed, to: base)
        let json = folder.file("changed.json")
        _ = try SeedGenerator(bundle: bundle, version: versionName).write(
            objects: 3, seedNumber: seed &+ 7, to: json)
        var input = try InputObjects(path: json, version: version)
        let existing = try InputObjects(path: base, version: version).keys
        input.shift(by: Self.offset)
        var changes: [String] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            if let change = input.mutate(existing: existing, random: &random) { changes.append(change) }
        }
        try input.write(to: json)
        let context =
            "seed \(seed), \(versionName) of \(bundle.path), \(changes.isEmpty ? "unchanged" : changes.joined(separator: "; "))"
        var findings: [String] = []

        // create --seed: refused with no file made, or a store that passes.
        let created = folder.file("created.sqlite")
        do {
            _ = try Store.create(at: created, bundle: bundle, version: versionName, seed: json)
            tally.taken += 1
            findings += try WritePathsPropertyTests.problems(ofStoreAt: created, bundle: bundle, folder: folder).map {
                "create --seed took it: \($0)"
            }
        } catch {
            tally.refused += 1
            findings += Self.refusalProblems(error, version: version).map { "create --seed: \($0)" }
            if changes.isEmpty { findings.append("create --seed refused the seed generator's objects: \(error)") }
            if FileManager.default.fileExists(atPath: created) {
                findings.append("create --seed refused, but made the file")
            }
            let strays = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.contains(".remodel-")
            }
            if !strays.isEmpty { findings.append("create --seed refused, but left \(strays)") }
        }

        // import into a store that holds objects.
        let target = folder.file("target.sqlite")
        let store = try Store.create(at: target, bundle: bundle, version: versionName, seed: base)
        let before = try WritePathsPropertyTests.state(ofStoreAt: target, bundle: bundle)
        do {
            try store.importJSON(from: json)
            tally.taken += 1
            findings += try WritePathsPropertyTests.problems(ofStoreAt: target, bundle: bundle, folder: folder).map {
                "import took it: \($0)"
            }
        } catch {
            tally.refused += 1
            findings += Self.refusalProblems(error, version: version).map { "import: \($0)" }
            if try WritePathsPropertyTests.state(ofStoreAt: target, bundle: bundle) != before {
                findings.append("import refused, but the store changed")
            }
            if let problems = try? store.checkEverything(), !problems.isEmpty {
                findings.append("import refused, and the store fails the check: \(problems)")
            }
        }
        #expect(findings.isEmpty, "\(context):\n\(findings.joined(separator: "\n"))")
    }

    /// A fixture model's version, or a random history's first or last version.
    static func model(seed: UInt64, random: inout SplitMix64, in folder: TemporaryFolder) throws -> (
        ModelBundle, String
    ) {
        let pick = Int(seed % UInt64(fixtures.count + 1))
        if pick < fixtures.count {
            let bundle = try ModelBundle(
                contentsOf: ValidationSupport.packageRoot.appendingPathComponent(fixtures[pick]).path)
            let names = bundle.versionNames
            return (bundle, names[Int.random(in: 0..<names.count, using: &random)])
        }
        var generator = HistoryGenerator(seed: seed)
        let history = try generator.history(versions: Int.random(in: 2...6, using: &random))
        let path = try BundleWriting.write(
            history.name, in: folder.path, versions: history.versions.map { ($0.name, $0.model.xml) })
        let bundle = try ModelBundle(contentsOf: path)
        return (bundle, Bool.random(using: &random) ? bundle.versionNames[0] : bundle.currentVersionName)
    }

    /// What a refusal lacks: a ``RemodelError`` that names the entity at fault.
    static func refusalProblems(_ error: any Error, version: ModelVersion) -> [String] {
        guard let error = error as? RemodelError else { return ["refused with \(type(of: error)): \(error)"] }
        guard let entity = error.entity else { return ["the refusal names no entity: \(error)"] }
        guard version.entity(named: entity) != nil || error.message.contains("unknown entity") else {
            return ["the refusal names \"\(entity)\", which the model lacks: \(error)"]
        }
        return []
    }
}

/// The seed generator's objects as JSON values, to change at random.
struct InputObjects {
    let version: ModelVersion
    /// Objects by entity name, as the file lists them.
    var objects: [String: [[String: Any]]]

    init(path: String, version: ModelVersion) throws {
        self.version = version
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        objects = (try JSONSerialization.jsonObject(with: data) as? [String: [[String: Any]]]) ?? [:]
    }

    /// Every `_pk` the file gives.
    var keys: [Int64] {
        objects.values.flatMap { $0.compactMap { ($0[StoreColumn.pk] as? NSNumber)?.int64Value } }.sorted()
    }

    func write(to path: String) throws {
        let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }

    private func relationship(_ key: String, of entity: String) -> Relationship? {
        version.entity(named: entity).flatMap { entity in version.relationships(of: entity).first { $0.name == key } }
    }

    /// Adds `offset` to every `_pk` and every link, so that the objects go beside those of another seed.
    mutating func shift(by offset: Int64) {
        func shifted(_ value: Any) -> Any {
            if let number = value as? NSNumber { return NSNumber(value: number.int64Value + offset) }
            if let array = value as? [Any] { return array.map(shifted) }
            return value
        }
        for (entity, list) in objects {
            objects[entity] = list.map { object in
                var object = object
                for (key, value) in object where key == StoreColumn.pk || relationship(key, of: entity) != nil {
                    object[key] = shifted(value)
                }
                return object
            }
        }
    }

    /// Values of every JSON kind, at the edges of the attribute types and beside them.
    static var values: [Any] {
        [
            NSNull(), "x", "", String(repeating: "é", count: 300), "AB12", "ab", 40000, -40000, 3_000_000_000,
            Int64.max, Int64.min, 0, -1, 10, 1e308, -0.0, 0.5, Double.leastNonzeroMagnitude, "NaN", "Infinity",
            "-Infinity", true, false,
            "1969-12-31T23:59:59.000Z", "0001-01-01T00:00:00.000Z", "2001-01-01T00:00:00.000Z", "not a date",
            "AAEC", "!!", "12.30", "1e999", [1], ["a": 1], "00000000-0000-0000-0000-000000000000",
            "https://example.com/x", "{}", "{\"x\":1}",
        ]
    }

    /// Removes an object another object links to (its entity's, or a sub-entity's), so that the link names no
    /// object; nil when no object links to any.
    private mutating func removeLinkedObject(random: inout SplitMix64) -> String? {
        var targets: [(entity: String, key: Int64, from: String)] = []
        for (entity, list) in objects.sorted(by: { $0.key < $1.key }) {
            for object in list {
                for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                    guard let relationship = relationship(key, of: entity),
                        let destination = relationship.destinationEntity,
                        let destinationEntity = version.entity(named: destination)
                    else { continue }
                    let linked = ((value as? [Any]) ?? [value]).compactMap { ($0 as? NSNumber)?.int64Value }
                    let kinds = version.hierarchy(of: destinationEntity).map(\.name)
                    for key in linked {
                        for kind in kinds
                        where objects[kind]?.contains(where: { ($0[StoreColumn.pk] as? NSNumber)?.int64Value == key })
                            == true
                        {
                            targets.append((kind, key, "\(entity) \(relationship.name)"))
                        }
                    }
                }
            }
        }
        guard let target = targets.randomElement(using: &random) else { return nil }
        objects[target.entity]?.removeAll { ($0[StoreColumn.pk] as? NSNumber)?.int64Value == target.key }
        return "\(target.entity) _pk \(target.key) removed (\(target.from) links to it)"
    }

    /// One random change; returns what it did, or nil when it found nothing to change.
    mutating func mutate(existing: [Int64], random: inout SplitMix64) -> String? {
        let entities = objects.keys.sorted().filter { !(objects[$0]?.isEmpty ?? true) }
        guard !entities.isEmpty else { return nil }
        let entity = entities[Int.random(in: 0..<entities.count, using: &random)]
        guard var list = objects[entity] else { return nil }
        let index = Int.random(in: 0..<list.count, using: &random)
        var object = list[index]
        let all = keys + existing
        let someKey = { (random: inout SplitMix64) -> Int64 in
            all.isEmpty ? 1 : all[Int.random(in: 0..<all.count, using: &random)]
        }
        let subject = "\(entity) _pk \(object[StoreColumn.pk].map { "\($0)" } ?? "?")"
        let properties = object.keys.filter { $0 != StoreColumn.pk }.sorted()
        let property = properties.isEmpty ? nil : properties[Int.random(in: 0..<properties.count, using: &random)]
        let change: String
        let roll = Int.random(in: 0..<100, using: &random)
        // A link to no object that nothing else contradicts: one object's link given alone makes its target's
        // inverse disagree, which another guard refuses; an object removed leaves no side of its own to disagree.
        if roll < 25, let removed = removeLinkedObject(random: &random) { return removed }
        switch roll {
        case 0..<30:
            guard let property else { return nil }
            if let relationship = relationship(property, of: entity) {
                let value: Any
                switch Int.random(in: 0..<5, using: &random) {
                case 0: value = NSNull()
                case 1: value = relationship.isToMany ? [] : "1"
                case 2: value = relationship.isToMany ? [someKey(&random), someKey(&random)] : someKey(&random)
                case 3: value = relationship.isToMany ? [Int64.max] : Int64.max
                default:
                    let key = someKey(&random)
                    value = relationship.isToMany ? [key, key] : key
                }
                object[property] = value
                change = "\(subject) \(property) = \(value)"
            } else {
                let value: Any
                if Int.random(in: 0..<4, using: &random) == 0, let other = list.randomElement(using: &random),
                    let copied = other[property]
                {
                    value = copied
                } else {
                    value = Self.values[Int.random(in: 0..<Self.values.count, using: &random)]
                }
                object[property] = value
                change = "\(subject) \(property) = \(value)"
            }
        case 30..<40:
            guard let property else { return nil }
            object[property] = nil
            change = "\(subject) without \(property)"
        case 40..<50:
            object[StoreColumn.pk] = nil
            change = "\(subject) without _pk"
        case 50..<60:
            let key = someKey(&random)
            object[StoreColumn.pk] = NSNumber(value: key)
            change = "\(subject) given _pk \(key)"
        case 60..<72:
            var copy = object
            let key = (all.max() ?? 0) + 1
            copy[StoreColumn.pk] = NSNumber(value: key)
            list.append(copy)
            change = "\(subject) copied as _pk \(key)"
        case 72..<82:
            list.remove(at: index)
            objects[entity] = list
            return "\(subject) removed"
        case 82..<88:
            object["noSuchKey"] = 1
            change = "\(subject) noSuchKey = 1"
        default:
            guard let property, relationship(property, of: entity) != nil else { return nil }
            object[property] = nil
            change = "\(subject) without its link \(property)"
        }
        list[index] = object
        objects[entity] = list
        return change
    }
}
