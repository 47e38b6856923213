import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// One rule for every subcommand's exit status (DESIGN.md "Command line"): 0 done, 1 refused, 2 could not start
/// (an input that is not there, a version the model lacks), 64 a command line it does not understand. Every
/// subcommand runs against each kind of failure it can meet, and its status is compared with the rule and with
/// its own help's `Exit status:` section, which the CLI writes from one table: a status the help does not list,
/// or an input the help names for 2 that no case here makes go missing, fails.
struct ExitStatusTests {
    /// What goes wrong in a case, and the status the rule gives it.
    enum Failure: String, CaseIterable, Sendable {
        case model, store, version, configuration, mappings, jsonFile, coreDataStore, mappingModel, fixtures, storeList
        case path, badOption, refused

        var status: Int32 {
            switch self {
            case .badOption: 64
            case .refused: 1
            default: 2
            }
        }

        /// How the help's `2` line names the input (nil: not an input).
        var noun: String? {
            switch self {
            case .model: "a model"
            case .store: "a store"
            case .version: "a version the model lacks"
            case .configuration: "a configuration the model lacks"
            case .mappings: "a --mappings folder"
            case .jsonFile: "a JSON file"
            case .coreDataStore: "a Core Data store"
            case .mappingModel: "a mapping model"
            case .fixtures: "a --fixtures folder"
            case .storeList: "a --stores-from file"
            case .path: "a path"
            case .badOption, .refused: nil
            }
        }
    }

    /// The files a case runs on, in a folder of its own.
    struct Scene {
        let folder: TemporaryFolder
        let model = Reliability.modelPath
        /// A store at `Library 2`, older than the current `Library 3`.
        let older: String
        /// A store at the current version.
        let current: String
        /// `{}`: a JSON file that imports nothing.
        let json: String
        /// A file that is no database.
        let garbage: String
        /// A bundle with an error `validate` reports (a relationship to an entity it lacks).
        let broken: String
        /// A copy of the sample bundle, for the subcommands that write into one.
        let sample: String

        init() throws {
            folder = try TemporaryFolder()
            let bundle = try MigrationFixtures.library()
            older = folder.file("older.sqlite")
            current = folder.file("current.sqlite")
            _ = try Store.create(at: older, bundle: bundle, version: "Library 2")
            _ = try Store.create(at: current, bundle: bundle)
            json = try folder.write("{}", to: "empty.json")
            garbage = try folder.write("not a database\n", to: "garbage.sqlite")
            broken = try BundleWriting.write(
                "Broken", in: folder.path,
                versions: [
                    (
                        "Broken",
                        #"<entity name="A" representedClassName="A"><relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Nowhere"/></entity>"#
                    )
                ])
            sample = folder.file("Library.xcdatamodeld")
            try FileManager.default.copyItem(atPath: model, toPath: sample)
        }

        func missing(_ name: String) -> String { folder.file("missing-" + name) }
    }

    /// One subcommand run against one failure.
    struct Case: Sendable, CustomTestStringConvertible {
        var command: String
        var failure: Failure
        var arguments: @Sendable (Scene) -> [String]
        var testDescription: String { "\(command) \(failure)" }
    }

    static let model = Reliability.modelPath

    static let cases: [Case] = [
        Case(command: "validate", failure: .path) { [$0.missing("model.xcdatamodeld")] },
        Case(command: "validate", failure: .refused) { [$0.broken] },
        Case(command: "diff", failure: .model) { [$0.missing("model.xcdatamodeld")] },
        Case(command: "diff", failure: .version) { [$0.model, "--to", "Library 9"] },
        Case(command: "diff", failure: .mappings) { [$0.model, "--mappings", $0.missing("mappings")] },
        Case(command: "diff", failure: .refused) {
            [$0.model, "--from", "Library", "--to", "Library 2", "--mappings", $0.folder.path]
        },
        Case(command: "infer", failure: .model) { [$0.missing("m.xcdatamodeld"), "--from", "A", "--to", "B"] },
        Case(command: "infer", failure: .version) { [$0.model, "--from", "Library 9", "--to", "Library 2"] },
        Case(command: "infer", failure: .refused) {
            [$0.model, "--from", "Library", "--to", "Library 2", "-o", $0.folder.file("out.xml")]
        },
        Case(command: "create", failure: .model) { [$0.folder.file("new.sqlite"), "--model", $0.missing("m")] },
        Case(command: "create", failure: .version) {
            [$0.folder.file("new.sqlite"), "--model", $0.model, "--version", "Library 9"]
        },
        Case(command: "create", failure: .configuration) {
            [$0.folder.file("new.sqlite"), "--model", $0.model, "--configuration", "Nowhere"]
        },
        Case(command: "create", failure: .jsonFile) {
            [$0.folder.file("new.sqlite"), "--model", $0.model, "--seed", $0.missing("seed.json")]
        },
        Case(command: "create", failure: .refused) { [$0.current, "--model", $0.model] },
        Case(command: "import", failure: .model) { [$0.current, $0.json, "--model", $0.missing("m")] },
        Case(command: "import", failure: .store) { [$0.missing("s.sqlite"), $0.json, "--model", $0.model] },
        Case(command: "import", failure: .jsonFile) { [$0.current, $0.missing("j.json"), "--model", $0.model] },
        Case(command: "import", failure: .refused) { [$0.older, $0.json, "--model", $0.model] },
        Case(command: "export", failure: .model) { [$0.current, "--model", $0.missing("m")] },
        Case(command: "export", failure: .store) { [$0.missing("s.sqlite"), "--model", $0.model] },
        Case(command: "export", failure: .refused) { [$0.garbage, "--model", $0.model] },
        Case(command: "status", failure: .model) { [$0.current, "--model", $0.missing("m")] },
        Case(command: "status", failure: .mappings) { [$0.older, "--model", $0.model, "--mappings", $0.missing("m")] },
        Case(command: "status", failure: .refused) { [$0.garbage, "--model", $0.model] },
        Case(command: "migrate", failure: .model) { [$0.older, "--model", $0.missing("m")] },
        Case(command: "migrate", failure: .store) { [$0.missing("s.sqlite"), "--model", $0.model] },
        Case(command: "migrate", failure: .version) { [$0.older, "--model", $0.model, "--to", "Library 9"] },
        Case(command: "migrate", failure: .mappings) {
            [$0.older, "--model", $0.model, "--mappings", $0.missing("m"), "--dry-run"]
        },
        Case(command: "migrate", failure: .storeList) { ["--stores-from", $0.missing("list"), "--model", $0.model] },
        Case(command: "migrate", failure: .refused) { [$0.garbage, "--model", $0.model] },
        Case(command: "rollback", failure: .store) { [$0.missing("s.sqlite")] },
        Case(command: "rollback", failure: .refused) { [$0.current] },
        Case(command: "convert-mapping", failure: .model) {
            [MigrationFixtures.packageRoot + "/Tests/RemodelTests/Fixtures", "--model", $0.missing("m")]
        },
        Case(command: "convert-mapping", failure: .mappingModel) {
            [$0.missing("x.xcmappingmodel"), "--model", $0.model]
        },
        Case(command: "seed", failure: .model) { [$0.missing("m"), "--version", "Library"] },
        Case(command: "seed", failure: .version) { [$0.model, "--version", "Library 9"] },
        Case(command: "seed", failure: .configuration) {
            [$0.model, "--version", "Library", "--configuration", "Nowhere"]
        },
        Case(command: "seed", failure: .refused) { [$0.broken, "--version", "Broken"] },
        Case(command: "import-core-data", failure: .coreDataStore) {
            [$0.missing("cd.sqlite"), "--into", $0.folder.file("new.sqlite")]
        },
        Case(command: "import-core-data", failure: .model) {
            [$0.garbage, "--model", $0.missing("m"), "--into", $0.folder.file("new.sqlite")]
        },
        Case(command: "import-core-data", failure: .version) {
            [$0.garbage, "--model", $0.model, "--version", "Library 9", "--into", $0.folder.file("new.sqlite")]
        },
        Case(command: "import-core-data", failure: .configuration) {
            [$0.garbage, "--model", $0.model, "--configuration", "Nowhere", "--into", $0.folder.file("new.sqlite")]
        },
        Case(command: "import-core-data", failure: .refused) { [$0.garbage, "--into", $0.folder.file("new.sqlite")] },
        Case(command: "extract-model", failure: .coreDataStore) {
            [$0.missing("cd.sqlite"), "-o", $0.folder.file("x.xcdatamodeld")]
        },
        Case(command: "extract-model", failure: .refused) { [$0.garbage, "-o", $0.folder.file("x.xcdatamodeld")] },
        Case(command: "test-matrix", failure: .model) { [$0.missing("m")] },
        Case(command: "test-matrix", failure: .version) { [$0.model, "--version", "Library 9"] },
        Case(command: "test-matrix", failure: .mappings) { [$0.model, "--mappings", $0.missing("m")] },
        Case(command: "test-matrix", failure: .fixtures) { [$0.model, "--fixtures", $0.missing("f")] },
        Case(command: "generate", failure: .model) { [$0.missing("m"), "-o", $0.folder.file("out")] },
        Case(command: "generate", failure: .version) {
            [$0.model, "--version", "Library 9", "-o", $0.folder.file("out")]
        },
        Case(command: "generate", failure: .configuration) {
            [$0.model, "--configuration", "Nowhere", "-o", $0.folder.file("out")]
        },
        Case(command: "generate", failure: .refused) { [$0.broken, "-o", $0.folder.file("out")] },
        Case(command: "add-version", failure: .model) { [$0.missing("m.xcdatamodeld")] },
        Case(command: "add-version", failure: .version) { [$0.sample, "--from", "Library 9"] },
        Case(command: "add-version", failure: .refused) { [$0.sample, "--name", "Library 2"] },
    ]

    /// Inputs a subcommand's help names for 2 that no case makes go missing, and why.
    static let untested: [String: Failure] = [
        // The demo's sample model is found beside the tool's own sources, which a test cannot take away.
        "demo": .model
    ]

    /// The subcommands `remodel --help` lists.
    static func subcommands() throws -> [String] {
        let help = try RemodelProcess.run(["--help"]).output
        let section = try #require(help.components(separatedBy: "SUBCOMMANDS:\n").last)
        let lines = section.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        return lines.compactMap { line in
            line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
        }.filter { $0 != "help" }
    }

    /// Every subcommand's `Exit status:` section, read once for the suite.
    static let sections: [String: [Int32: String]] = {
        var sections: [String: [Int32: String]] = [:]
        for command in (try? subcommands()) ?? [] { sections[command] = try? readExitStatuses(of: command) }
        return sections
    }()

    /// A subcommand's `Exit status:` section: each status and what it means.
    static func exitStatuses(of command: String) throws -> [Int32: String] {
        try #require(sections[command], "remodel --help lists no subcommand \(command)")
    }

    private static func readExitStatuses(of command: String) throws -> [Int32: String] {
        let help = try RemodelProcess.run([command, "--help"]).output
        let section = try #require(help.components(separatedBy: "Exit status:\n").last)
        var statuses: [Int32: String] = [:]
        var last: Int32?
        for line in section.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 1)
            if line.hasPrefix("  "), !line.hasPrefix("   "), let status = Int32(words[0]) {
                statuses[status] = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
                last = status
            } else if line.hasPrefix("      "), let status = last {
                statuses[status, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                break
            }
        }
        return statuses
    }

    /// The inputs a `2` line names: `could not start: a model, a store or a JSON file that cannot be read or is not
    /// there; a version the model lacks` gives the four.
    static func inputs(_ line: String?) -> Set<String> {
        guard let line, line.hasPrefix("could not start: ") else { return [] }
        var nouns: Set<String> = []
        for part in line.dropFirst("could not start: ".count).components(separatedBy: "; ") {
            let files = part.components(separatedBy: " that cannot be read or is not there")
            guard files.count == 2 else {
                // What else stops the command before it starts (an output that cannot be written) is no input.
                if part == "a version the model lacks" || part == "a configuration the model lacks" {
                    nouns.insert(part)
                }
                continue
            }
            for noun in files[0].components(separatedBy: ", ").flatMap({ $0.components(separatedBy: " or ") }) {
                nouns.insert(noun)
            }
        }
        return nouns
    }

    @Test(arguments: cases)
    func eachFailureHasTheStatusTheRuleAndTheHelpGive(_ test: Case) throws {
        let scene = try Scene()
        let result = try RemodelProcess.run([test.command] + test.arguments(scene))
        #expect(result.status == test.failure.status, "\(result)")
        #expect(!(result.error + result.output).isEmpty, "a failure says why")
        let help = try Self.exitStatuses(of: test.command)
        #expect(help[test.failure.status] != nil, "\(test.command) --help lists no \(test.failure.status): \(help)")
        if let noun = test.failure.noun {
            #expect(Self.inputs(help[2]).contains(noun), "\(test.command) --help: \(help[2] ?? "no 2")")
        }
    }

    @Test func aBadOptionIsSixtyFourEverywhere() throws {
        for command in try Self.subcommands() {
            let result = try RemodelProcess.run([command, "--no-such-option"])
            #expect(result.status == 64, "\(command): \(result)")
            #expect(try Self.exitStatuses(of: command)[64] != nil, "\(command)")
        }
    }

    /// Every input a help names for 2 has a case above that makes it go missing, and every subcommand has one.
    @Test func everyInputTheHelpsNameIsTried() throws {
        let commands = try Self.subcommands()
        #expect(commands.contains("add-version") && commands.count >= 17, "\(commands)")
        for command in commands {
            let tried = Set(Self.cases.filter { $0.command == command }.compactMap(\.failure.noun))
                .union([Self.untested[command]?.noun].compactMap { $0 })
            let named = Self.inputs(try Self.exitStatuses(of: command)[2])
            #expect(named == tried, "\(command): the help names \(named.sorted()), the cases try \(tried.sorted())")
        }
    }
}
