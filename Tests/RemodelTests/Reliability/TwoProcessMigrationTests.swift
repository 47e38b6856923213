import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

#if canImport(Glibc)
    import Glibc
#endif

extension Tag {
    /// Tests that repeat a race many times; a few rounds of each run in the everyday suite.
    @Tag static var manyRounds: Self
}

/// Two processes migrating or launching one store at once (an app and its extension, two workers, a
/// fleet given the store twice): exactly one migrates, the other waits for it, saying so, then finds the
/// store current. Both end well, in rollback-journal and WAL mode, round after round.
@Suite(.serialized) struct TwoProcessMigrationTests {
    /// Rounds per journal mode in the everyday suite, and under the `manyRounds` tag.
    static let everydayRounds = 1
    static let manyRounds = ProcessInfo.processInfo.environment["REMODEL_ROUNDS"].flatMap { Int($0) } ?? 25

    static let people = 400

    /// The export of a store of `people` people migrated alone, to compare every object with.
    static let expected: Result<String, any Error> = Result {
        try StoreStates.libraryExports(people: people).new
    }

    /// A store at "Library" in a fresh folder, in WAL mode or not.
    private func store(wal: Bool) throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        try Reliability.makeStore(at: store, people: Self.people)
        if wal { try StoreStates.makeWAL(store) }
        return (folder, store)
    }

    /// The migrated store holds every object as a migration alone makes it, and nothing is left beside it.
    private func expectMigratedOnce(_ store: String, in folder: TemporaryFolder, _ happened: String) throws {
        #expect(try Reliability.version(store) == "Library 3", "\(happened)")
        #expect(try FleetCheck.history(store) == FleetCheck.migratedOnceFromLibrary, "\(happened)")
        expectSameText(try Reliability.export(store), try Self.expected.get())
        #expect(try folder.contents() == ["library.sqlite"], "\(happened)")
    }

    /// Two `remodel migrate --progress json` on one store: both exit 0, one migrated, the other found the
    /// store current; a process that waited said so in its progress.
    private func twoMigrations(wal: Bool) throws {
        let (folder, store) = try self.store(wal: wal)
        let arguments = Reliability.migrateArguments(store).dropLast(2) + ["--progress", "json"]
        let children = try (0..<2).map { _ in try Reliability.start(Array(arguments)) }
        let outcomes = children.map { $0.wait() }
        let happened = outcomes.map(\.description).joined(separator: "\n")
        #expect(outcomes.allSatisfy { $0.status == 0 }, "\(happened)")
        let migrated = outcomes.filter { $0.output.hasPrefix("Migrated \(store) from Library to Library 3 in 2 steps") }
        let current = outcomes.filter { $0.output == "\(store) is already at Library 3: nothing to do.\n" }
        #expect(migrated.count == 1 && current.count == 1, "\(happened)")
        for outcome in outcomes where outcome.error.contains("\"phase\":\"waiting\"") {
            #expect(outcome.output.contains("already at"), "only the process that did not migrate waits: \(happened)")
        }
        try expectMigratedOnce(store, in: folder, happened)
    }

    @Test(arguments: [false, true]) func twoMigrateProcessesBothEndWithTheStoreMigratedOnce(wal: Bool) throws {
        for _ in 0..<Self.everydayRounds { try twoMigrations(wal: wal) }
    }

    @Test(.tags(.manyRounds), .enabled(if: ProcessInfo.processInfo.environment["REMODEL_ROUNDS"] != nil))
    func twoMigrateProcessesManyRounds() throws {
        for round in 0..<Self.manyRounds { try twoMigrations(wal: round % 2 == 1) }
    }

    /// While another process holds the migration lock, `remodel migrate` waits and says so: JSON lines of
    /// phase `waiting` with how far the other migration is, or the bar in words. Once the lock is free, one
    /// of the two migrates and the other finds the store current.
    @Test func aWaitingMigrationSaysItWaitsForAnotherProcess() throws {
        let (folder, store) = try self.store(wal: true)
        let files = try StoreFiles(path: store)
        let heartbeat = MigrationHeartbeat()
        heartbeat.publish(fraction: 0.4242)
        let held = try #require(
            try MigrationLock.acquire(
                files.lockPath, storePath: store, silenceMilliseconds: 5_000, heartbeat: heartbeat
            ) { (_) throws(RemodelError) in })
        let arguments = Array(Reliability.migrateArguments(store).dropLast(2))
        let children = try ["json", "bar"].map { try Reliability.start(arguments + ["--progress", $0]) }
        usleep(1_000_000)
        held.release()
        let (json, bar) = (children[0].wait(), children[1].wait())
        let happened = "\(json)\n\(bar)"
        #expect(json.status == 0 && bar.status == 0, "\(happened)")
        #expect([json, bar].filter { $0.output.hasPrefix("Migrated ") }.count == 1, "\(happened)")
        let lines = json.error.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == #"{"phase":"waiting","step":0,"steps":0,"pass":0,"passes":0,"passSteps":null,"entity":null,"completed":4242,"total":10000,"fraction":0.0,"eta":null}"#,
            "\(happened)")
        #expect(lines.filter { $0.contains("\"phase\":\"waiting\"") }.count >= 2, "\(happened)")
        #expect(lines.last?.contains("\"phase\":\"finished\"") == true, "\(happened)")
        #expect(
            bar.error.contains("waiting for another process's migration") && bar.error.contains("42%"), "\(happened)")
        try expectMigratedOnce(store, in: folder, happened)
    }

    /// The API reports the wait as progress (``MigrationProgress/Phase/waiting``) before anything else.
    @Test func theAPIReportsTheWaitAsProgress() async throws {
        let (folder, store) = try self.store(wal: false)
        let files = try StoreFiles(path: store)
        let heartbeat = MigrationHeartbeat()
        heartbeat.publish(fraction: 0.5)
        let held = try #require(
            try MigrationLock.acquire(
                files.lockPath, storePath: store, silenceMilliseconds: 5_000, heartbeat: heartbeat
            ) { (_) throws(RemodelError) in })
        let seen = Collector<MigrationProgress>()
        let migration = Task {
            try await Migrator(
                bundle: Reliability.library, options: MigrationOptions(mappingsDirectory: Reliability.mappingsPath)
            )
            .migrate(storeAt: store) { seen.append($0) }
        }
        while !seen.values.contains(where: { $0.phase == .waiting }) { usleep(10_000) }
        held.release()
        let report = try await migration.value
        #expect(report.steps == 2)
        let waiting = try #require(seen.values.first { $0.phase == .waiting })
        #expect(waiting.completed == 5_000 && waiting.total == 10_000 && waiting.fraction == 0)
        #expect(seen.values.first?.phase == .waiting)
        #expect(seen.values.last?.phase == .finished)
        try expectMigratedOnce(store, in: folder, "\(seen.values)")
    }

    /// A process that holds the migration lock but gives no sign of life (stopped, hung) is waited for a
    /// bounded time only: the migration then stops with `locked`, one sentence, and changes nothing.
    @Test func aHolderWithoutASignOfLifeIsWaitedForABoundedTime() async throws {
        let (folder, store) = try self.store(wal: true)
        let before = try FolderSnapshot(folder.path)
        let files = try StoreFiles(path: store)
        // A lock file held with no heartbeat, as a stopped process leaves it.
        let descriptor = open(files.lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(flock(descriptor, LOCK_EX) == 0)
        defer {
            unlink(files.lockPath)
            close(descriptor)
        }
        var options = MigrationOptions(mappingsDirectory: Reliability.mappingsPath)
        options.lockTimeoutMilliseconds = 2_000
        let started = Date()
        let error = await #expect(throws: RemodelError.self) {
            try await Migrator(bundle: Reliability.library, options: options).migrate(storeAt: store)
        }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(error?.code == .locked)
        #expect(
            error?.description
                == "\(store): another process is migrating the store but has given no sign of life for 2000 ms (stopped or hung?), so Remodel stopped waiting for it and changed nothing; let that process finish or end it, then migrate again"
        )
        unlink(files.lockPath)
        #expect(try FolderSnapshot(folder.path) == before)
    }

    /// A fleet given one store twice (through a symbolic link), two jobs at once: one migrates it, the
    /// other finds it current; the run ends with status 0.
    @Test(arguments: [false, true]) func aFleetGivenOneStoreTwiceMigratesItOnce(wal: Bool) throws {
        let (folder, store) = try self.store(wal: wal)
        let link = NSTemporaryDirectory() + "remodel-two-process-link-\(UUID().uuidString).sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
        defer { try? FileManager.default.removeItem(atPath: link) }
        let outcome = try FleetCheck.migrate([store, link], ["--jobs", "2", "--progress", "none"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("2 stores: 1 migrated, 1 already current, 0 refused"), "\(outcome)")
        try expectMigratedOnce(store, in: folder, "\(outcome)")
    }

    /// Two processes launching one store at once (`Store.launch`, as an app and its extension do): both open
    /// it, one having migrated it, the other having waited for that and found it current.
    private func twoLaunches(wal: Bool) throws {
        let (folder, store) = try self.store(wal: wal)
        let children = try (0..<2).map { _ in
            try ChildTest.start("launchesTheStoreNamedByTheParent", environment: ["REMODEL_LAUNCH_STORE": store])
        }
        let outcomes = children.map { $0.wait() }
        let happened = outcomes.map(\.description).joined(separator: "\n")
        #expect(outcomes.allSatisfy { $0.status == 0 }, "\(happened)")
        let results = outcomes.map { outcome in
            outcome.output.split(separator: "\n").first { $0.hasPrefix("launch: ") }.map(String.init) ?? ""
        }
        #expect(results.sorted() == ["launch: migrated", "launch: opened"], "\(happened)")
        try expectMigratedOnce(store, in: folder, happened)
    }

    @Test(arguments: [false, true]) func twoProcessesLaunchingOneStoreBothOpenIt(wal: Bool) throws {
        for _ in 0..<Self.everydayRounds { try twoLaunches(wal: wal) }
    }

    @Test(.tags(.manyRounds), .enabled(if: ProcessInfo.processInfo.environment["REMODEL_ROUNDS"] != nil))
    func twoProcessesLaunchingManyRounds() throws {
        for round in 0..<Self.manyRounds { try twoLaunches(wal: round % 2 == 1) }
    }

    /// Two processes launching at once, the first launch of an app whose other build kept its data in Core
    /// Data: one imports the Core Data store, the other opens what it made (it found the store there, or
    /// lost the race to put it there).
    private func twoFirstLaunchesImportingCoreData() throws {
        let folder = try TemporaryFolder()
        let source = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let bundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        let store = folder.file("zoo-remodel.sqlite")
        let environment = ["REMODEL_LAUNCH_STORE": store, "REMODEL_LAUNCH_MODEL": bundle, "REMODEL_CORE_DATA": source]
        let children = try (0..<2).map { _ in
            try ChildTest.start("importsAndLaunchesTheStoreNamedByTheParent", environment: environment)
        }
        let outcomes = children.map { $0.wait() }
        let happened = outcomes.map(\.description).joined(separator: "\n")
        #expect(outcomes.allSatisfy { $0.status == 0 }, "\(happened)")
        let results = outcomes.map { outcome in
            outcome.output.split(separator: "\n").first { $0.hasPrefix("launch: ") }.map(String.init) ?? ""
        }
        #expect(results.sorted() == ["launch: imported", "launch: opened"], "\(happened)")
        let zoo = try ModelBundle(contentsOf: bundle)
        #expect(try Store.open(at: store, bundle: zoo).exportJSONString().contains(#""name": "Tom""#))
        let left = try folder.contents().filter { $0.contains(".remodel-") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func twoFirstLaunchesImportTheCoreDataStoreOnce() throws {
        for _ in 0..<Self.everydayRounds { try twoFirstLaunchesImportingCoreData() }
    }

    @Test(.tags(.manyRounds), .enabled(if: ProcessInfo.processInfo.environment["REMODEL_ROUNDS"] != nil))
    func twoFirstLaunchesImportingCoreDataManyRounds() throws {
        for _ in 0..<Self.manyRounds { try twoFirstLaunchesImportingCoreData() }
    }

    /// The child of ``twoFirstLaunchesImportingCoreData()``: the first launch importing the Core Data store.
    @Test(.enabled(if: ChildTest.isChild("importsAndLaunchesTheStoreNamedByTheParent")))
    func importsAndLaunchesTheStoreNamedByTheParent() async throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment["REMODEL_LAUNCH_STORE"])
        let bundle = try ModelBundle(contentsOf: try #require(environment["REMODEL_LAUNCH_MODEL"]))
        let (store, outcome, imported) = try await Store.launch(
            at: path, bundle: bundle, importingCoreDataFrom: try #require(environment["REMODEL_CORE_DATA"]))
        #expect(store.version.name == "Zoo 1" && outcome == .opened)
        print(imported == nil ? "launch: opened" : "launch: imported")
    }

    /// The child of ``twoLaunches(wal:)``: launches the store the parent names, prints what it did.
    @Test(.enabled(if: ChildTest.isChild("launchesTheStoreNamedByTheParent")))
    func launchesTheStoreNamedByTheParent() async throws {
        let path = try #require(ProcessInfo.processInfo.environment["REMODEL_LAUNCH_STORE"])
        let (store, outcome) = try await Store.launch(
            at: path, bundle: Reliability.library,
            options: MigrationOptions(mappingsDirectory: Reliability.mappingsPath))
        #expect(store.version.name == "Library 3")
        switch outcome {
        case .migrated: print("launch: migrated")
        case .opened: print("launch: opened")
        default: print("launch: \(outcome)")
        }
    }
}
