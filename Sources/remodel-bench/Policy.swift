import Foundation
import Remodel

/// A Swift per-object policy on one entity through the library's own API
/// (`EntityPolicy`): Person objects made in Swift (full name built, age
/// widened, status left to its default) during a whole v1 → v2 migration.
/// The figure is Person objects per second of phase 1 spent on Person,
/// timed from the progress events; the same entity copied with one
/// `INSERT … SELECT` is measured alongside as its SQL limit.
enum Policy {
    static func run(source: String, result: inout ScenarioResult) async throws {
        let sqlPath = source + ".policy-sql"
        defer { try? FileManager.default.removeItem(atPath: sqlPath) }

        var options = MigrationOptions(mappingsDirectory: BenchModel.mappingsPath, targetVersion: BenchModel.v2)
        options.policies = [
            EntityPolicy(destination: "Person") { person in
                guard case .text(let first) = person["firstName"], case .text(let last) = person["lastName"] else {
                    return []
                }
                return [
                    DestinationObject([
                        "fullName": .text(first + " " + last), "age": person["yearsSinceBirth"],
                        "score": person["score"],
                    ])
                ]
            }
        ]
        let clock = EntityClock()
        _ = try await Migrator(bundle: try BenchModel.bundle(), options: options).migrate(storeAt: source) { progress in
            clock.mark(progress)
        }
        let (people, seconds, cpuSeconds) = clock.personPhaseOne()
        let (steadyPeople, steadySeconds) = clock.personSteady()

        let start = Measure.now()
        try? FileManager.default.removeItem(atPath: sqlPath)
        let connection = try SQLiteConnection(path: sqlPath, mode: .create)
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384")
        try connection.execute(HandWritten.tables(toVersion4: false)[1].create)
        try connection.attach(path: source, as: "src", readOnly: true)
        try connection.execute("BEGIN")
        try connection.execute(HandWritten.tables(toVersion4: false)[1].copy)
        let copied = connection.changes
        try connection.execute("COMMIT")
        let sqlSeconds = Measure.now() - start

        result.seconds = seconds
        result.extra["people"] = Double(people)
        result.extra["objectsPerSecond"] = Double(people) / seconds
        result.extra["cpuObjectsPerSecond"] = Double(people) / cpuSeconds
        result.extra["steadyObjectsPerSecond"] = Double(steadyPeople) / steadySeconds
        result.extra["sqlSeconds"] = sqlSeconds
        result.extra["sqlObjectsPerSecond"] = Double(copied) / sqlSeconds
        result.note = "Person through EntityPolicy (stream, Swift transform, insert, key table) in a full migration"
    }

    /// When phase 1 started and finished working on Person, from the progress events, with the
    /// process's CPU time at the same events.
    ///
    /// Events are delivered at most every 50 ms, so the previous entity's last event may come before
    /// its last batches: "people" then counts some of them, and the time some of theirs. The steady
    /// figure avoids that: Person objects between Person's first and last events, over the time between.
    final class EntityClock: @unchecked Sendable {
        private let lock = NSLock()
        private var beforePerson: Double?
        private var lastPerson: Double?
        private var cpuBeforePerson: Double?
        private var cpuLastPerson: Double?
        private var firstPerson: (time: Double, completed: Int)?
        private var completedBefore = 0
        private var completedAfter = 0

        func mark(_ progress: MigrationProgress) {
            lock.lock()
            defer { lock.unlock() }
            guard progress.phase == .instances else { return }
            let now = Measure.now()
            let cpu = Measure.processCPU()
            if progress.entity == "Person" {
                if lastPerson == nil, beforePerson == nil { (beforePerson, cpuBeforePerson) = (now, cpu) }
                (lastPerson, cpuLastPerson) = (now, cpu)
                completedAfter = progress.completed
                if firstPerson == nil { firstPerson = (now, progress.completed) }
            } else if lastPerson == nil {
                (beforePerson, cpuBeforePerson) = (now, cpu)
                completedBefore = progress.completed
            }
        }

        /// Person objects made, the seconds it took (from the previous entity's last event to Person's
        /// last) and the process's CPU seconds over the same events.
        func personPhaseOne() -> (Int, Double, Double) {
            lock.lock()
            defer { lock.unlock() }
            return (
                completedAfter - completedBefore, max(1e-9, (lastPerson ?? 0) - (beforePerson ?? 0)),
                max(1e-9, (cpuLastPerson ?? 0) - (cpuBeforePerson ?? 0))
            )
        }

        /// Person objects between Person's first and last events, and the seconds between them.
        func personSteady() -> (Int, Double) {
            lock.lock()
            defer { lock.unlock() }
            guard let firstPerson, let lastPerson else { return (0, 1e-9) }
            return (completedAfter - firstPerson.completed, max(1e-9, lastPerson - firstPerson.time))
        }
    }
}
