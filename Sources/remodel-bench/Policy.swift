import Foundation
import Remodel

/// The closest thing to a Swift per-object migration policy the library allows today (it has no
/// policy API yet): the Person rows read in batches with a prepared `SQLiteStatement`, each object
/// transformed in Swift (full name built, age widened, status defaulted), and written with a
/// prepared `INSERT`, one transaction per batch. The same entity copied with one `INSERT … SELECT`
/// is measured alongside as its SQL limit.
enum Policy {
    static let batch = 10_000

    struct Person {
        var pk: Int64
        var fullName: String
        var age: Int64?
        var status: Int64
        var score: Int64?
    }

    static func run(source: String, result: inout ScenarioResult) throws {
        let swiftPath = source + ".policy"
        let sqlPath = source + ".policy-sql"
        defer {
            for path in [swiftPath, sqlPath] { try? FileManager.default.removeItem(atPath: path) }
        }
        let create = HandWritten.tables(toVersion4: false)[1].create

        var start = Measure.now()
        let count = try swiftPolicy(source: source, destination: swiftPath, create: create)
        let swiftSeconds = Measure.now() - start

        start = Measure.now()
        let connection = try open(sqlPath, source: source, create: create)
        try connection.execute("BEGIN")
        try connection.execute(HandWritten.tables(toVersion4: false)[1].copy)
        try connection.execute("COMMIT")
        let sqlSeconds = Measure.now() - start

        result.seconds = swiftSeconds
        result.extra["people"] = Double(count)
        result.extra["objectsPerSecond"] = Double(count) / swiftSeconds
        result.extra["sqlSeconds"] = sqlSeconds
        result.extra["sqlObjectsPerSecond"] = Double(count) / sqlSeconds
        result.note = "Person only; no policy API yet: SQLiteStatement batches + Swift transform + prepared INSERT"
    }

    private static func open(_ path: String, source: String, create: String) throws -> SQLiteConnection {
        try? FileManager.default.removeItem(atPath: path)
        let connection = try SQLiteConnection(path: path, mode: .create)
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384")
        try connection.execute(create)
        try connection.attach(path: source, as: "src", readOnly: true)
        return connection
    }

    /// Streams the source rows with one statement and writes each transformed object as it comes,
    /// committing every `batch` objects: memory stays flat whatever the entity's size.
    private static func swiftPolicy(source: String, destination: String, create: String) throws -> Int {
        let connection = try open(destination, source: source, create: create)
        let read = try connection.prepare(
            "SELECT \"_pk\", \"firstName\", \"lastName\", \"yearsSinceBirth\", \"score\" FROM src.\"Person\" ORDER BY \"_pk\"")
        let write = try connection.prepare(
            "INSERT INTO main.\"Person\" (\"_pk\", \"_entity\", \"fullName\", \"age\", \"nickname\", \"status\", \"score\") VALUES (?, 'Person', ?, ?, NULL, ?, ?)")
        var count = 0
        try connection.execute("BEGIN")
        try read.forEachRow { row throws(RemodelError) in
            // The policy: what a caller's Swift code would do with each source object.
            let first = try row.withUTF8(at: 1) { String(decoding: $0, as: UTF8.self) }
            let last = try row.withUTF8(at: 2) { String(decoding: $0, as: UTF8.self) }
            let person = Person(
                pk: row.int64(at: 0), fullName: first + " " + last,
                age: row.storageClass(at: 3) == .null ? nil : row.int64(at: 3), status: 0,
                score: row.storageClass(at: 4) == .null ? nil : row.int64(at: 4))
            write.reset()
            try write.bind(.integer(person.pk), at: 1)
            try write.bind(.text(person.fullName), at: 2)
            try write.bind(person.age.map(SQLiteValue.integer) ?? .null, at: 3)
            try write.bind(.integer(person.status), at: 4)
            try write.bind(person.score.map(SQLiteValue.integer) ?? .null, at: 5)
            try write.step()
            count += 1
            if count % batch == 0 {
                try connection.execute("COMMIT")
                try connection.execute("BEGIN")
            }
        }
        try connection.execute("COMMIT")
        return count
    }
}
