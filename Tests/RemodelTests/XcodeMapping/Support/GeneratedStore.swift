import Foundation

@testable import Remodel
@testable import RemodelModel

/// A store of generated objects (``GeneratedStoreData``) at one version of a bundle, in a temporary folder.
final class GeneratedStore {
    let folder: TemporaryFolder
    let path: String
    let bundle: ModelBundle

    init(bundle: ModelBundle, version: String, objectsPerEntity: Int = 4) throws {
        folder = try TemporaryFolder()
        path = folder.file("store.sqlite")
        self.bundle = bundle
        _ = try Store.create(at: path, bundle: bundle, version: version)
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        guard let model = bundle.version(named: version) else {
            throw RemodelError(.invalidModel, "no version \(version)")
        }
        try GeneratedStoreData.fill(connection, version: model, objectsPerEntity: objectsPerEntity)
    }

    /// The rows of a concrete entity at `version`, each by column name (`_pk` included), in `_pk` order.
    func rows(of entity: String, at version: ModelVersion) throws -> [[String: SQLiteValue]] {
        let layout = StoreLayout(version: version)
        guard let table = layout.table(forEntity: entity) else { return [] }
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let names = ["_pk"] + table.columns.map(\.name).filter { $0 != "_pk" }
        let rows = try connection.rows(
            "SELECT \(names.map(quoteIdentifier).joined(separator: ", ")) FROM \(quoteIdentifier(table.name)) WHERE \"_entity\" = ? ORDER BY \"_pk\"",
            [.text(entity)])
        return rows.map { Dictionary(uniqueKeysWithValues: zip(names, $0)) }
    }

    /// The number of objects of each concrete entity at `version`.
    func counts(at version: ModelVersion) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for entity in version.entities where !entity.isAbstract {
            result[entity.name] = try rows(of: entity.name, at: version).count
        }
        return result
    }

    /// The values a mapping's attribute expression gives for every object of its source entity, evaluated in Swift.
    func values(
        of attribute: String, in mapping: EntityMapping, from source: ModelVersion, to destination: ModelVersion
    ) throws -> [SQLiteValue] {
        guard let sourceName = mapping.source, let sourceEntity = source.entity(named: sourceName),
            let destinationEntity = mapping.destination.flatMap(destination.entity(named:)),
            let target = destination.attribute(named: attribute, in: destinationEntity),
            let value = mapping.attribute(attribute)?.value
        else { throw RemodelError(.invalidMapping, "no \(attribute) in \(mapping.destination ?? "?")") }
        let checked = try ExpressionTypeChecker(model: source, entity: sourceEntity)
            .check(try ExpressionParser.parse(value.text), assignableTo: target.type, optional: target.isOptional)
        let interpreter = ExpressionInterpreter()
        return try rows(of: sourceName, at: source).map {
            try interpreter.evaluate(checked, row: DictionaryRow(values: $0))
        }
    }
}
