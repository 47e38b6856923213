import Foundation
import GRDB
import Remodel
import Testing

/// SplitMix64: a small, fast, seedable generator, so that a failing seed draws the same run again.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }
}

/// A random run of writes through generated records on one store, in autocommit mode (no transaction around an
/// operation, so a refusal that wrote part of its work would show), then the store's full check:
///
/// - every operation either succeeds or is refused with the schema's `RecordError` (or GRDB's own
///   `recordNotFound`), and a refused one leaves every row of every table as it was;
/// - the store then passes `Store.checkEverything` (the model's every rule and `integrity_check`);
/// - its export imports into a fresh store whose export is the same.
struct WriteRun {
    let bundle: ModelBundle
    let path: String
    let queue: DatabaseQueue
    var draw: Draw
    /// Whether an error is the model's refusal (the schema's `RecordError`).
    let isRefusal: (any Error) -> Bool
    private(set) var succeeded = 0
    private(set) var refused = 0
    private(set) var log: [String] = []

    init(bundle: ModelBundle, in folder: URL, seed: UInt64, isRefusal: @escaping (any Error) -> Bool) throws {
        self.bundle = bundle
        path = folder.appendingPathComponent("records.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        queue = try DatabaseQueue(path: path)
        draw = Draw(random: SeededRandom(seed: seed))
        self.isRefusal = isRefusal
    }

    /// Every row of every table, in one text: what a refused operation must leave as it was.
    static func dump(_ db: Database) throws -> String {
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var text = ""
        for table in tables {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \(quoted) ORDER BY rowid") {
                text += table + " " + row.description + "\n"
            }
        }
        return text
    }

    /// Runs one operation; a refusal must leave every row as it was.
    mutating func attempt(_ name: String, _ operation: (Database, inout Draw) throws -> Void) throws {
        var draw = self.draw
        defer { self.draw = draw }
        let (outcome, changed): (String, Bool) = try queue.inDatabase { db in
            let before = try Self.dump(db)
            do {
                try operation(db, &draw)
                return ("ok", false)
            } catch {
                let known = isRefusal(error) || (error as? GRDB.RecordError) != nil
                guard known else { return ("unexpected error: \(error)", false) }
                return ("refused: \(error)", try Self.dump(db) != before)
            }
        }
        log.append("\(name): \(outcome)")
        if outcome == "ok" {
            succeeded += 1
        } else if outcome.hasPrefix("refused") {
            refused += 1
        }
        if outcome.hasPrefix("unexpected") {
            Issue.record("\(name) failed with an error that is not the model's refusal: \(outcome)\n\(trail)")
        }
        if changed {
            Issue.record("\(name) was refused but wrote: \(outcome)\n\(trail)")
        }
    }

    /// The last operations, for a failure's message.
    var trail: String { log.suffix(12).joined(separator: "\n") }

    /// The store's full check, and export → import into a fresh store → export.
    func checkTheStore(in folder: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        try queue.close()
        let store = try Store.open(at: path, bundle: bundle)
        let failures = try store.checkEverything()
        #expect(
            failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))\n\(trail)",
            sourceLocation: sourceLocation)
        let export = try store.exportJSONString()
        let file = folder.appendingPathComponent("export.json").path
        try Data(export.utf8).write(to: URL(fileURLWithPath: file))
        let again = folder.appendingPathComponent("imported.sqlite").path
        do {
            _ = try Store.create(at: again, bundle: bundle, seed: file)
            let second = try Store.open(at: again, bundle: bundle).exportJSONString()
            #expect(
                second == export, "the export imported back exports otherwise\n\(trail)", sourceLocation: sourceLocation
            )
        } catch {
            Issue.record("the export does not import back: \(error)\n\(trail)", sourceLocation: sourceLocation)
        }
    }
}

/// What an operation draws: values, and keys of the store's objects.
struct Draw {
    var random: SeededRandom

    mutating func chance(_ percent: Int) -> Bool { random.chance(percent) }

    mutating func pick<T>(_ values: [T]) -> T { random.pick(values) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// Text from a pool that meets and breaks common rules (empty, long, lowercase, accents, quotes, NUL).
    mutating func text() -> String {
        pick(["Ada", "ada", "", "A", String(repeating: "W", count: 41), "Émile", "O'Neil \"Q\"", "nul\u{0}byte", "ZZ9"])
    }

    /// A Double from a pool of edge values.
    mutating func double() -> Double {
        pick([0, -0.0, 0.1, 1e308, -1e-308, .nan, .infinity, -.infinity, 42.5, 0.4, 1001])
    }

    /// A date from a pool of edge values.
    mutating func date() -> Date {
        Date(
            timeIntervalSince1970: pick([
                0, -1e10, 1.7e9, 978_307_200 + 0.000_1, 4e11, .nan, .infinity, 1e9 + 978_307_200,
            ]))
    }

    /// The `_pk`s of a table, `_entity IN kinds` when given.
    func keys(_ db: Database, _ table: String, kinds: [String]? = nil) throws -> [Int64] {
        var sql = "SELECT _pk FROM \"\(table)\""
        if let kinds { sql += " WHERE _entity IN (\(kinds.map { "'\($0)'" }.joined(separator: ", ")))" }
        return try Int64.fetchAll(db, sql: sql + " ORDER BY _pk")
    }

    /// A key to write into a to-one or a link: mostly an object of `kinds`, sometimes one of the table's other
    /// entities, sometimes none at all (dangling), sometimes nil.
    mutating func key(_ db: Database, _ table: String, kinds: [String]? = nil) throws -> Int64? {
        let all = try keys(db, table)
        let wanted = try keys(db, table, kinds: kinds)
        switch int(0...99) {
        case 0..<72 where !wanted.isEmpty: return pick(wanted)
        case 72..<84 where !all.isEmpty: return pick(all)
        case 84..<94: return (all.max() ?? 0) + Int64(int(1...3)) * 1000
        default: return nil
        }
    }

    /// A few keys for a to-many's link method.
    mutating func someKeys(_ db: Database, _ table: String, kinds: [String]? = nil) throws -> [Int64] {
        try (0..<int(0...3)).compactMap { _ in try key(db, table, kinds: kinds) }
    }

    /// An existing object's key of `kinds`, to update, delete or link from.
    mutating func existing(_ db: Database, _ table: String, kinds: [String]? = nil) throws -> Int64? {
        let wanted = try keys(db, table, kinds: kinds)
        return wanted.isEmpty ? nil : pick(wanted)
    }
}
