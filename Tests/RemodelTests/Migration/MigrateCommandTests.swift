import Foundation
import Testing

@testable import Remodel

/// `remodel migrate` end to end through the built binary.
@Suite struct MigrateCommandTests {
    private static let model = "Models/Library.xcdatamodeld"

    private func library() throws -> MigrationCase {
        try MigrationCase(bundle: try MigrationFixtures.library(), seed: MigrationFixtures.path("Library", "seed.json"))
    }

    @Test func dryRunPrintsThePlanAndChangesNothing() throws {
        let migration = try library()
        let before = try migration.snapshot()
        let result = try RemodelProcess.run(["migrate", migration.store, "--model", Self.model, "--dry-run"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("Library: migrate from Library to Library 3 in 2 steps\n"))
        #expect(
            result.output.contains("Step 1: Library → Library 2 (mapping file Mappings/Library to Library 2.xml)\n"))
        #expect(result.output.contains("Step 2: Library 2 → Library 3 (inferred)\n"))
        #expect(result.output.contains("fullName = trim($source.firstName + ' ' + $source.lastName)"))
        #expect(result.output.hasSuffix("Runs as 1 pass over the store (steps 1–2 in one).\n"))
        let stepByStep = try RemodelProcess.run([
            "migrate", migration.store, "--model", Self.model, "--dry-run", "--step-by-step",
        ])
        #expect(stepByStep.output.hasSuffix("Runs as 2 passes over the store.\n"))
        #expect(try migration.snapshot() == before)
    }

    /// The dry run prints, for an attribute the model's default fills, the value the migration writes: Diligence 2
    /// adds `Task.isArchived`, a Boolean whose default is `NO`; the plan says `false`, and `false` is what the
    /// migrated tasks hold.
    @Test func theDryRunPrintsTheDefaultValueItWillWrite() throws {
        let folder = try TemporaryFolder()
        let (model, seed, store) = ("Models/Diligence.xcdatamodeld", folder.file("seed.json"), folder.file("d.sqlite"))
        #expect(
            try RemodelProcess.run(["seed", model, "--version", "Diligence", "--objects", "3", "-o", seed]).status == 0)
        #expect(
            try RemodelProcess.run(["create", store, "--model", model, "--version", "Diligence", "--seed", seed]).status
                == 0)
        let plan = try RemodelProcess.run(["migrate", store, "--model", model, "--dry-run"])
        #expect(
            plan.output.contains("\n      isArchived = false  [inferred: model default \"NO\"]\n"), "\(plan.output)")
        #expect(plan.output.contains("\n      mood = nil  [inferred: new, starts empty]\n"), "\(plan.output)")
        #expect(try RemodelProcess.run(["migrate", store, "--model", model, "-q"]).status == 0)
        let exported = try RemodelProcess.run(["export", store, "--model", model]).output
        let tasks = exported.split(separator: "\n").filter { $0.contains("\"isArchived\"") }
        #expect(tasks.count == 3 && tasks.allSatisfy { $0.contains("\"isArchived\": false") }, "\(tasks)")
    }

    /// The closing line says what its count counts: the objects written, in the tables the migration wrote,
    /// and how many tables it carried as they were.
    @Test func theClosingLineSaysWhatItCounted() throws {
        let migration = try library()
        let result = try RemodelProcess.run(["migrate", migration.store, "--model", Self.model])
        #expect(
            result.output.hasPrefix(
                "Migrated \(migration.store) from Library to Library 3 in 2 steps: 3 objects written to Person and Tag, 1 other table carried as it was, "
            ), "\(result.output)")
    }

    @Test func progressJSONLinesOnStandardError() throws {
        let migration = try library()
        let result = try RemodelProcess.run(["migrate", migration.store, "--model", Self.model, "--progress", "json"])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output.hasPrefix(
                "Migrated \(migration.store) from Library to Library 3 in 2 steps: 3 objects written"))
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "every line ends with a newline")
        var fractions: [Double] = []
        var phases: [String] = []
        for line in lines.dropLast() {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            for key in [
                "phase", "step", "steps", "pass", "passes", "passSteps", "entity", "completed", "total", "fraction",
            ] {
                #expect(object[key] != nil, "\(key) missing in \(line)")
            }
            #expect(object["entity"] is String || object["entity"] is NSNull)
            fractions.append(try #require(object["fraction"] as? Double))
            phases.append(try #require(object["phase"] as? String))
        }
        #expect(fractions.count >= 8)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "never decreasing: \(fractions)")
        #expect(fractions.last == 1.0)
        #expect(phases.first == "planning" && phases.last == "finished")
        #expect(
            Set(phases) == ["planning", "instances", "relationships", "indexes", "validation", "replace", "finished"])
        expectSameText(try migration.export(), try MigrationFixtures.text("Library", "expected-3.json"))
    }

    /// `--integrity-check` chooses SQLite's check: on a store with a damaged row in a table no step rewrites,
    /// `quick` and `full` (which read the store whole) refuse it and leave it alone; `written` (which reads what
    /// the steps wrote) migrates it.
    @Test(arguments: ["quick", "full", "written"]) func integrityCheckChoices(check: String) throws {
        let migration = try OriginalFileCheckTests.damagedLibrary()
        let before = try migration.snapshot()
        let result = try RemodelProcess.run([
            "migrate", migration.store, "--model", Self.model, "--integrity-check", check,
        ])
        if check == "written" {
            #expect(result.status == 0, "\(result.error)")
        } else {
            #expect(result.status == 1, "\(result.error)")
            #expect(result.error.contains("NULL value in Book._entity [integrity-check]"), "\(result.error)")
            #expect(try migration.snapshot() == before)
        }
    }

    @Test func unknownIntegrityCheckIsAUsageError() throws {
        let migration = try library()
        let before = try migration.snapshot()
        let result = try RemodelProcess.run([
            "migrate", migration.store, "--model", Self.model, "--integrity-check", "some",
        ])
        #expect(result.status == 64, "\(result.error)")
        #expect(
            result.error.contains("quick") && result.error.contains("written"),
            "the error lists the values: \(result.error)")
        #expect(try migration.snapshot() == before)
    }

    @Test func failureExitsNonZeroWithOneSentenceAndChangesNothing() throws {
        let migration = try MigrationCase(fixture: "RequiredNil")
        let bundle = MigrationFixtures.path("RequiredNil", "Refuse.xcdatamodeld")
        // One sentence naming the store, then one line per offending object.
        try expectCommandRefusedUntouched(
            [
                "migrate", migration.store, "--model", bundle, "--mappings",
                MigrationFixtures.path("RequiredNil", "Mappings"), "--progress", "none",
            ],
            error: """
                error: \(migration.store): the data migrated from Refuse to Refuse 2 breaks the model's rules, so the store was left as it was:
                  - Item _pk 2 "number": a value is required, but it is nil; give it a default in the model or a value in the mapping [required]
                  - Item _pk 3 "number": a value is required, but it is nil; give it a default in the model or a value in the mapping [required]

                """, folder: migration.folder.path)
    }

    @Test func garbageStoreExitsNonZeroWithOneLine() throws {
        let folder = try TemporaryFolder()
        let store = try folder.write("not a database\n", to: "store.sqlite")
        let result = try RemodelProcess.run(["migrate", store, "--model", Self.model, "--progress", "json"])
        #expect(result.status != 0)
        let errorLines = result.error.split(separator: "\n").filter { !$0.hasPrefix("{") }
        #expect(errorLines.count == 1, "\(result.error)")
        #expect(errorLines.first?.contains(store) == true)
        #expect(errorLines.first?.components(separatedBy: store).count == 2, "the path is named once: \(result.error)")
        #expect(try folder.contents() == ["store.sqlite"])
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "not a database\n")
    }

    @Test func aMissingStoreIsNotMigratedNorCreated() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("store.sqlite")
        let result = try RemodelProcess.run(["migrate", store, "--model", Self.model])
        #expect(result.status == 2)
        #expect(
            result.error
                == "error: there is no store at \(store), so there is nothing to migrate; create one with `remodel create` (or let Store.launch create it at the current version)\n"
        )
        #expect(try folder.contents().isEmpty)
    }
}
