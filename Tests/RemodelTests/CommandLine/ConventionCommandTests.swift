import Foundation
import Testing

@testable import Remodel

/// What every `remodel` subcommand does alike: `--version`, `error:` as compilers print it, the
/// subcommand's usage after a command line it does not understand, versions listed when one is
/// unknown, no made-up position for a missing path, short options.
struct ConventionCommandTests {
    private let model = "Models/Library.xcdatamodeld"

    @Test func versionIsTheLibrarys() throws {
        let result = try RemodelProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output == Remodel.version + "\n")
    }

    @Test func aUsageErrorShowsTheSubcommandsUsage() throws {
        let result = try RemodelProcess.run(["migrate", "--model", model])
        #expect(result.status == 64)
        #expect(result.output == "")
        #expect(result.error.hasPrefix("error: give the stores to migrate, or --stores-from FILE\n"), "\(result.error)")
        #expect(
            result.error.contains("\nUsage: remodel migrate [<options>] [<store> ...] --model <model>"),
            "\(result.error)")
        let demo = try RemodelProcess.run(["demo", "--people", "0"])
        #expect(demo.status == 64)
        #expect(demo.error.hasPrefix("error: --people must be at least 1\nUsage: remodel demo "), "\(demo.error)")
    }

    @Test func anUnknownVersionIsNamedWithTheBundlesVersions() throws {
        let versions = #"its versions are "Library", "Library 2", "Library 3""#
        let diff = try RemodelProcess.run(["diff", model, "--to", "Library 9"])
        #expect(diff.status == 2)
        #expect(diff.error == "error: \(model): model \"Library\" has no version \"Library 9\"; \(versions)\n")
        let infer = try RemodelProcess.run(["infer", model, "--from", "Library", "--to", "Library 9"])
        #expect(infer.error == "error: \(model): model \"Library\" has no version \"Library 9\"; \(versions)\n")
        let migration = try MigrationCase(bundle: try MigrationFixtures.library(), seed: nil)
        let migrate = try RemodelProcess.run([
            "migrate", migration.store, "--model", model, "--to", "Library 9", "--dry-run",
        ])
        #expect(migrate.status == 2)
        #expect(migrate.error == "error: \(model): model \"Library\" has no version \"Library 9\"; \(versions)\n")
    }

    /// A path that does not exist is named as it is, with no line and column that the file does not have.
    @Test func aMissingPathHasNoMadeUpPosition() throws {
        let export = try RemodelProcess.run(["export", "store.sqlite", "--model", "Models/Nope.xcdatamodeld"])
        #expect(export.status == 2)
        #expect(
            export.error
                == "error: Models/Nope.xcdatamodeld: no model at this path; give a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file\n"
        )
        let validate = try RemodelProcess.run(["validate", "Models/Nope.xcdatamodeld", "--format", "json"])
        #expect(validate.status == 2)
        #expect(validate.error.hasPrefix("error: Models/Nope.xcdatamodeld: "), "\(validate.error)")
    }

    /// `diff` exits with 1 when it prints an error (a change that needs a mapping file the folder lacks), as
    /// `validate` does; with the mapping file (the default folder, Mappings, has it) the change is planned.
    @Test func diffExitsWithOneWhenAChangeNeedsAMapping() throws {
        let empty = try TemporaryFolder()
        let needsMapping = try RemodelProcess.run([
            "diff", model, "--from", "Library", "--to", "Library 2", "--mappings", empty.path,
        ])
        #expect(needsMapping.status == 1)
        #expect(needsMapping.output.contains("[needs-mapping]\n"))
        let mapped = try RemodelProcess.run(["diff", model, "--from", "Library", "--to", "Library 2"])
        #expect(mapped.status == 0, "\(mapped)")
        #expect(!mapped.output.contains("[needs-mapping]"), "\(mapped)")
        let inferable = try RemodelProcess.run(["diff", model, "--from", "Library 2", "--to", "Library 3"])
        #expect(inferable.status == 0, "\(inferable.output)")
    }

    @Test func shortOutputAndQuietOptions() throws {
        let folder = try TemporaryFolder()
        let store = folder.file("library.sqlite")
        let seed = MigrationFixtures.path("Library", "seed.json")
        let created = try RemodelProcess.run([
            "create", store, "--model", model, "--version", "Library", "--seed", seed, "-q",
        ])
        #expect(created.status == 0 && created.output == "" && created.error == "")
        let exported = folder.file("out.json")
        #expect(try RemodelProcess.run(["export", store, "--model", model, "-o", exported]).status == 0)
        let standardOutput = try RemodelProcess.run(["export", store, "--model", model])
        #expect(standardOutput.output.contains("\"Person\": [\n"))
        #expect(try String(contentsOfFile: exported, encoding: .utf8) == standardOutput.output)
        let mapping = folder.file("mapping.xml")
        let inferred = try RemodelProcess.run([
            "infer", model, "--from", "Library 2", "--to", "Library 3", "-o", mapping,
        ])
        #expect(inferred.status == 0 && inferred.output == "")
        #expect(FileManager.default.fileExists(atPath: mapping))
        let migrated = try RemodelProcess.run(["migrate", store, "--model", model, "-q"])
        #expect(migrated.status == 0 && migrated.output == "" && migrated.error == "", "\(migrated)")
        let validated = try RemodelProcess.run(["validate", model, "-q"])
        #expect(validated.status == 0 && validated.output == "")
        // `-o` is `--output` in every subcommand that writes what it could print.
        let written = folder.file("seed.json")
        let seeded = try RemodelProcess.run(["seed", model, "--version", "Library", "--objects", "2", "-o", written])
        #expect(seeded.status == 0, "\(seeded)")
        #expect(
            seeded.output == "Wrote 4 objects of 2 entities at version \"Library\" to \(written) (seed number 1).\n")
        #expect(try String(contentsOfFile: written, encoding: .utf8).contains("\"Person\": ["))
    }

    /// A bad argument found while the command runs (a glob that matches no store) is followed by the usage
    /// of `remodel migrate`, as one found while parsing is: the usage names the tool.
    @Test func aGlobThatMatchesNothingShowsTheUsageWithTheToolsName() throws {
        let folder = try TemporaryFolder()
        let result = try RemodelProcess.run(["migrate", folder.file("users-*.sqlite"), "--model", model])
        #expect(result.status == 64)
        #expect(
            result.error.hasPrefix("error: no file matches the pattern \(folder.file("users-*.sqlite"))"), "\(result)")
        #expect(
            result.error.contains("\nUsage: remodel migrate [<options>] [<store> ...] --model <model>\n"), "\(result)")
        #expect(result.error.hasSuffix("\n  See 'remodel migrate --help' for more information.\n"), "\(result)")
    }
}
