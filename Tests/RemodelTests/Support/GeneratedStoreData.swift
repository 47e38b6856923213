import Foundation

@testable import Remodel
@testable import RemodelModel

/// Fills a store of any model version with valid objects: values of every
/// type within the model's bounds, every to-one pointing at an object of its
/// destination, join tables with a few links each.
enum GeneratedStoreData {
    static func fill(_ connection: SQLiteConnection, version: ModelVersion, objectsPerEntity count: Int) throws {
        let layout = StoreLayout(version: version)
        var nextKey: [String: Int64] = [:]
        try connection.transaction { () throws(RemodelError) in
            for entity in version.entities where !entity.isAbstract {
                guard let table = layout.table(forEntity: entity.name) else { continue }
                let attributes = version.attributes(of: entity).filter(\.isStored)
                let columns =
                    (["_pk", "_entity"] + attributes.map { layout.columnName(of: $0.name, in: entity.name) ?? $0.name })
                    .map(quoteIdentifier).joined(separator: ", ")
                let insert = try connection.prepare(
                    "INSERT INTO \(quoteIdentifier(table.name)) (\(columns)) VALUES (\(Array(repeating: "?", count: attributes.count + 2).joined(separator: ", ")))"
                )
                for _ in 0..<count {
                    let key = nextKey[table.name, default: 0] + 1
                    nextKey[table.name] = key
                    try insert.bind([.integer(key), .text(entity.name)] + attributes.map { value(for: $0, key: key) })
                    try insert.step()
                }
            }
            // To-ones spread over their targets; of a one-to-one pair, the side that sorts first links each
            // object to a target of its own and the other side mirrors it, as Core Data keeps them.
            for table in layout.tables {
                for column in table.columns {
                    guard case .toOne(let declaring, let name, let destination) = column.content,
                        let target = layout.table(forEntity: destination),
                        let owner = version.entity(named: declaring), let relationship = owner.relationship(named: name)
                    else { continue }
                    let inverse = version.pairedInverse(of: relationship, in: owner)
                    let inverseOwner = inverse.flatMap { inverse in
                        version.entity(named: destination).map { version.declaringEntity(of: inverse, in: $0) }
                    }
                    if let inverse, !inverse.isToMany, let inverseOwner,
                        Array("\(inverseOwner.name).\(inverse.name)".utf8).lexicographicallyPrecedes(
                            Array("\(declaring).\(name)".utf8))
                    {
                        continue
                    }
                    let owners = layout.kinds(of: declaring).map(SQLiteValue.text)
                    let targets = layout.kinds(of: destination).map(SQLiteValue.text)
                    let ownerList = owners.map { _ in "?" }.joined(separator: ", ")
                    let targetList = targets.map { _ in "?" }.joined(separator: ", ")
                    let oneToOne = inverse.map { !$0.isToMany } ?? false
                    // Injective where there are targets enough (a one-to-one then pairs up exactly); a required to-one of
                    // more owners than targets shares targets rather than go empty.
                    let pick =
                        "t.n = o.n % (SELECT count(*) FROM \(quoteIdentifier(target.name)) WHERE \"_entity\" IN (\(targetList)))"
                    let quoted = quoteIdentifier(column.name)
                    try connection.run(
                        """
                        UPDATE \(quoteIdentifier(table.name)) SET \(quoted) = x.target FROM (
                        SELECT o."_pk" AS owner, t."_pk" AS target FROM
                        (SELECT "_pk", row_number() OVER (ORDER BY "_pk") - 1 AS n FROM \(quoteIdentifier(table.name)) WHERE "_entity" IN (\(ownerList))) AS o
                        JOIN (SELECT "_pk", row_number() OVER (ORDER BY "_pk") - 1 AS n FROM \(quoteIdentifier(target.name)) WHERE "_entity" IN (\(targetList))) AS t
                        ON \(pick)) AS x WHERE \(quoteIdentifier(table.name))."_pk" = x.owner
                        """, owners + targets + targets)
                    if oneToOne, let inverse, let inverseOwner,
                        let inverseColumn = layout.columnName(of: inverse.name, in: inverseOwner.name)
                    {
                        try connection.run(
                            "UPDATE \(quoteIdentifier(target.name)) SET \(quoteIdentifier(inverseColumn)) = (SELECT min(o.\"_pk\") FROM \(quoteIdentifier(table.name)) AS o WHERE o.\(quoted) = \(quoteIdentifier(target.name)).\"_pk\" AND o.\"_entity\" IN (\(ownerList))) WHERE \"_entity\" IN (\(layout.kinds(of: inverseOwner.name).map { _ in "?" }.joined(separator: ", ")))",
                            owners + layout.kinds(of: inverseOwner.name).map(SQLiteValue.text))
                    }
                }
            }
            // Join rows link objects of the relationship's kinds only (a link to another kind would be damage).
            for join in layout.joinTables {
                guard let source = layout.table(forEntity: join.sourceEntity),
                    let destination = layout.table(forEntity: join.destinationEntity)
                else { continue }
                let owners = layout.kinds(of: join.sourceEntity).map(SQLiteValue.text)
                let targets = layout.kinds(of: join.destinationEntity).map(SQLiteValue.text)
                guard !owners.isEmpty, !targets.isEmpty else { continue }
                try connection.run(
                    "INSERT OR IGNORE INTO \(quoteIdentifier(join.name)) (source, destination) SELECT s.\"_pk\", d.\"_pk\" FROM \(quoteIdentifier(source.name)) AS s JOIN \(quoteIdentifier(destination.name)) AS d ON (s.\"_pk\" + d.\"_pk\") % 3 = 0 WHERE s.\"_entity\" IN (\(owners.map { _ in "?" }.joined(separator: ", "))) AND d.\"_entity\" IN (\(targets.map { _ in "?" }.joined(separator: ", ")))",
                    owners + targets)
            }
        }
    }

    private static func bounds(_ attribute: Attribute) -> (Double?, Double?) {
        (attribute.minValue.flatMap { Double($0) }, attribute.maxValue.flatMap { Double($0) })
    }

    static func value(for attribute: Attribute, key: Int64) -> SQLiteValue {
        let (low, high) = bounds(attribute)
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            let lower = Int64(low ?? 0)
            let span = Int64(max(1, (high ?? Double(lower + 10_000)) - Double(lower) + 1))
            return .integer(lower + key % span)
        case .double, .float, .decimal:
            let number = (low ?? 0) + Double(key % 10) / 4
            let bounded = min(number, high ?? number)
            return attribute.type == .decimal ? .text(String(bounded)) : .real(bounded)
        case .boolean:
            return .integer(key % 2)
        case .string, .uri:
            if attribute.regularExpression != nil { return attribute.isOptional ? .null : .text("") }
            var text = attribute.type == .uri ? "https://example.com/\(key)" : "v\(key)"
            if let low, text.count < Int(low) { text += String(repeating: "x", count: Int(low) - text.count) }
            if let high, text.count > Int(high) { text = String(text.prefix(max(0, Int(high)))) }
            return .text(text)
        case .date:
            return .real(max(low.map { $0 + 978_307_200 } ?? 0, 1_600_000_000 + Double(key) * 86_400))
        case .uuid:
            let hex = String(key, radix: 16, uppercase: true)
            return .text("00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex)
        case .binary, .transformable:
            return .blob(Data([0, 1, UInt8(key % 256)]))
        case .composite:
            return .text("{}")
        case .objectID, .undefined:
            return .null
        }
    }
}
