import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Migrates a corpus bundle's generated data along its version order with the corpus folder as
/// the mappings folder (its Xcode mapping models included): step by step (every step written and
/// checked on its own, ``MigrationOptions/composesSteps`` off) or in one composed run.
///
/// Step by step, a hook checks each step's data against its mapping as it is written: every
/// object of an entity mapping that copies or transforms (without a filter or a policy) arrives
/// once, and every value an Xcode mapping model gives (a translated expression) is the value the
/// expression gives on the source object, object by object.
struct CorpusChain {
    let bundle: ModelBundle
    let mappings: String
    /// Swift stand-ins for the apps' policy classes, by class name.
    var classPolicies: [String: EntityPolicy] = [:]

    /// The bundle's versions in order, the last as the current one (the chain goes to the last).
    init(bundle: ModelBundle, mappings: String) {
        self.bundle = ModelBundle(
            name: bundle.name, path: bundle.path, versions: bundle.versions,
            currentVersionName: bundle.versions.last?.name)
        self.mappings = mappings
    }

    /// What a run did: one line per step written (`A → B: N objects`, with `, values of …` when an Xcode
    /// mapping model gave values), the problems the checks found, and the refusal, if the run was refused.
    struct Outcome {
        var steps: [String]
        var problems: [String]
        var refusal: RemodelError?
        var store: GeneratedStore
    }

    /// Migrates a new store of generated objects at `from` (default: the first version) to `to` (default: the last).
    func run(stepByStep: Bool, from: String? = nil, to: String? = nil, objectsPerEntity: Int = 2) async throws
        -> Outcome
    {
        let store = try GeneratedStore(
            bundle: bundle, version: from ?? bundle.versions[0].name, objectsPerEntity: objectsPerEntity)
        var options = MigrationOptions(
            mappingsDirectory: mappings, targetVersion: to ?? bundle.versions[bundle.versions.count - 1].name,
            batchSize: 3)
        for (name, policy) in classPolicies { options.register(policy, forClass: name) }
        let steps = Collector<String>()
        let problems = Collector<String>()
        if stepByStep {
            options.composesSteps = false
            options.hooks.afterStep = { database in
                let (line, found) = try Self.check(database)
                steps.append(line)
                for problem in found { problems.append(problem) }
            }
        }
        var refusal: RemodelError?
        do {
            _ = try await Migrator(bundle: bundle, options: options).migrate(storeAt: store.path)
        } catch {
            refusal = error
        }
        return Outcome(steps: steps.values, problems: problems.values, refusal: refusal, store: store)
    }

    /// Checks one written step (the new store is `main`, the source attached as `src`).
    private static func check(_ database: MigrationStepDatabase) throws -> (String, [String]) {
        let step = database.step, connection = database.connection
        let sourceLayout = StoreLayout(version: step.source), destinationLayout = StoreLayout(version: step.destination)
        let name = "\(step.source.name) → \(step.destination.name)"
        var problems: [String] = []
        var expected: [String: Int64] = [:]
        var checkedValues: [String] = []
        for entity in step.mapping.entities where entity.kind == .copy || entity.kind == .transform {
            guard let from = entity.source, let to = entity.destination,
                let sourceTable = sourceLayout.table(forEntity: from),
                let destinationTable = destinationLayout.table(forEntity: to)
            else { continue }
            let sourceRows = try rows(connection, schema: "src", table: sourceTable, entity: from)
            if entity.filter == nil && entity.policy == nil { expected[to, default: 0] += Int64(sourceRows.count) }
            guard entity.policy == nil, let sourceEntity = step.source.entity(named: from),
                let destinationEntity = step.destination.entity(named: to)
            else { continue }
            let arrived = Dictionary(
                try rows(connection, schema: "main", table: destinationTable, entity: to).map {
                    ($0["_pk"] ?? .null, $0)
                }, uniquingKeysWith: { a, _ in a })
            for attribute in entity.attributes {
                guard let value = attribute.value, value.origin != nil,
                    let target = step.destination.attribute(named: attribute.destination, in: destinationEntity)
                else { continue }
                let checked = try ExpressionTypeChecker(model: step.source, entity: sourceEntity)
                    .check(
                        try ExpressionParser.parse(value.text), assignableTo: target.type, optional: target.isOptional)
                for row in sourceRows {
                    let want = try ExpressionInterpreter().evaluate(checked, row: DictionaryRow(values: row))
                    let got = arrived[row["_pk"] ?? .null]?[attribute.destination] ?? .null
                    if want != got {
                        problems.append(
                            "\(name): \(to).\(attribute.destination) of _pk \(row["_pk"] ?? .null) is \(got), not \(want)"
                        )
                    }
                }
                checkedValues.append("\(to).\(attribute.destination) = \(value.text)")
            }
        }
        var total: Int64 = 0
        for entity in step.destination.entities where !entity.isAbstract {
            guard let table = destinationLayout.table(forEntity: entity.name) else { continue }
            let count = try rows(connection, schema: "main", table: table, entity: entity.name).count
            total += Int64(count)
            if let want = expected[entity.name], want != Int64(count) {
                problems.append("\(name): \(count) \(entity.name) objects, not \(want)")
            }
        }
        let values = checkedValues.isEmpty ? "" : ", values of \(checkedValues.joined(separator: ", ")) checked"
        return ("\(name): \(total) objects\(values)", problems)
    }

    private static func rows(_ connection: SQLiteConnection, schema: String, table: StoreLayout.Table, entity: String)
        throws -> [[String: SQLiteValue]]
    {
        let names = ["_pk"] + table.columns.map(\.name).filter { $0 != "_pk" }
        let sql =
            "SELECT \(names.map(quoteIdentifier).joined(separator: ", ")) FROM \(schema).\(quoteIdentifier(table.name)) WHERE \"_entity\" = ? ORDER BY \"_pk\""
        return try connection.rows(sql, [.text(entity)]).map { Dictionary(uniqueKeysWithValues: zip(names, $0)) }
    }

    /// The store's export as text.
    static func export(_ store: GeneratedStore, bundle: ModelBundle) throws -> String {
        try Store.open(at: store.path, bundle: bundle).exportJSONString()
    }

    /// A policy that copies every attribute the destination entity shares with the source object, plus `extra`.
    static func copying(
        _ destination: ModelVersion, extra: @escaping @Sendable (SourceObject) -> [String: SQLiteValue] = { _ in [:] }
    ) -> EntityPolicy {
        EntityPolicy(destination: "") { source in
            var values: [String: SQLiteValue] = [:]
            if let entity = destination.entity(named: source.entity) {
                for attribute in destination.attributes(of: entity)
                where attribute.isStored && source[attribute.name] != .null {
                    values[attribute.name] = source[attribute.name]
                }
            }
            for (name, value) in extra(source) { values[name] = value }
            return [DestinationObject(values)]
        }
    }
}
