import Foundation
import Testing

@testable import Remodel

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `remodel` binary as a child process and makes Library stores for the
/// reliability tests (crash injection, hostile stores, concurrency, disk full).
enum Reliability {
    /// The `remodel` executable, found as `ValidateCommandTests` finds it: beside the test
    /// products, or in `.build/debug` of the package.
    static let executable: URL? = RemodelProcess.executable

    static let modelPath = ValidationSupport.packageRoot.appendingPathComponent("Models/Library.xcdatamodeld").path
    static let mappingsPath = ValidationSupport.packageRoot.appendingPathComponent("Mappings").path

    /// How a child process ended.
    struct Outcome: CustomStringConvertible {
        var status: Int32
        var killedBySignal: Int32?
        var output: String
        var error: String

        var description: String {
            "status \(status), signal \(killedBySignal.map(String.init) ?? "none"), stdout: \(output), stderr: \(error)"
        }
    }

    /// A child process whose standard output and error go to temporary files.
    final class Child {
        let process = Process()
        private let outputPath = NSTemporaryDirectory() + "remodel-child-\(UUID().uuidString).out"
        private let errorPath = NSTemporaryDirectory() + "remodel-child-\(UUID().uuidString).err"
        private let inputPath = NSTemporaryDirectory() + "remodel-child-\(UUID().uuidString).in"

        /// Starts `executable arguments…`; `input` is its standard input (none by default), `directory` its
        /// working folder (this process's by default). Variables that steer `remodel` (fault points, a job
        /// runner's shard, the terminal's width) are not inherited, only given.
        init(
            _ executable: URL, _ arguments: [String], environment: [String: String], input: String? = nil,
            directory: String? = nil
        ) throws {
            process.executableURL = executable
            process.arguments = arguments
            var inherited = ProcessInfo.processInfo.environment
            let steering = [
                "REMODEL_FAULT_POINT", "REMODEL_FAULT_HIT", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID",
                "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "COLUMNS",
            ]
            for name in steering { inherited[name] = nil }
            process.environment = inherited.merging(environment) { $1 }
            if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
            _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
            _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: outputPath)
            process.standardError = FileHandle(forWritingAtPath: errorPath)
            if let input {
                _ = FileManager.default.createFile(atPath: inputPath, contents: Data(input.utf8))
                process.standardInput = FileHandle(forReadingAtPath: inputPath)
            } else {
                process.standardInput = FileHandle.nullDevice
            }
            try process.run()
        }

        /// Waits for the end and collects what the child printed.
        func wait() -> Outcome {
            process.waitUntilExit()
            defer {
                for path in [outputPath, errorPath, inputPath] { try? FileManager.default.removeItem(atPath: path) }
            }
            let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
            let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            if process.executableURL?.lastPathComponent == "remodel" {
                InternalValues.check(process.arguments ?? [], output: output, error: error)
            }
            return Outcome(status: process.terminationStatus, killedBySignal: signal, output: output, error: error)
        }
    }

    /// Starts `remodel ARGUMENTS` with extra environment variables; `unprivileged` runs it as
    /// `nobody` when the tests run as root (so that file permissions apply to it).
    static func start(_ arguments: [String], environment: [String: String] = [:], unprivileged: Bool = false) throws
        -> Child
    {
        let executable: URL = try #require(executable, "build the remodel product first (swift build)")
        if unprivileged && geteuid() == 0 {
            return try Child(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path] + arguments,
                environment: environment)
        }
        return try Child(executable, arguments, environment: environment)
    }

    /// Runs `remodel ARGUMENTS` and waits for it to end.
    static func remodel(_ arguments: [String], environment: [String: String] = [:], unprivileged: Bool = false) throws
        -> Outcome
    {
        try start(arguments, environment: environment, unprivileged: unprivileged).wait()
    }

    /// `remodel migrate STORE --model Models/Library.xcdatamodeld --mappings Mappings --progress none`.
    static func migrate(
        _ store: String, environment: [String: String] = [:], unprivileged: Bool = false, stepByStep: Bool = false,
        batchSize: Int? = nil
    ) throws -> Outcome {
        let options = (stepByStep ? ["--step-by-step"] : []) + (batchSize.map { ["--batch-size", String($0)] } ?? [])
        return try remodel(migrateArguments(store) + options, environment: environment, unprivileged: unprivileged)
    }

    static func migrateArguments(_ store: String) -> [String] {
        ["migrate", store, "--model", modelPath, "--mappings", mappingsPath, "--progress", "none"]
    }

    /// `remodel status STORE --model Models/Library.xcdatamodeld`.
    static func status(_ store: String, unprivileged: Bool = false) throws -> Outcome {
        try remodel(["status", store, "--model", modelPath, "--mappings", mappingsPath], unprivileged: unprivileged)
    }

    static let library: ModelBundle = {
        do { return try ModelBundle(contentsOf: modelPath) } catch { fatalError("cannot read \(modelPath): \(error)") }
    }()

    /// A seed in the export shape of version "Library": `people` people with two books each
    /// (odd people have no email and no age), with quotes, semicolons and non-ASCII text.
    static func seedJSON(people: Int) -> String {
        var persons: [String] = []
        var books: [String] = []
        for person in 1...people {
            let email = person % 2 == 0 ? "\"p\(person)@example.org\"" : "null"
            let age = person % 2 == 0 ? "\(18 + person % 60)" : "null"
            persons.append(
                "{\"_pk\": \(person), \"firstName\": \" Ada\(person)\", \"lastName\": \"O'Brien; DROP TABLE \\\"Book\\\"; -- é☃\", \"email\": \(email), \"yearsSinceBirth\": \(age)}"
            )
            for offset in 0..<2 {
                let book = person * 2 - 1 + offset
                books.append(
                    "{\"_pk\": \(book), \"title\": \"Book \(book) 'quoted'\", \"isbn\": \"978-\(book)\", \"price\": \"\(book).50\", \"publishedOn\": null, \"author\": \(person)}"
                )
            }
        }
        return "{\"Person\": [\n" + persons.joined(separator: ",\n") + "\n], \"Book\": [\n"
            + books.joined(separator: ",\n") + "\n]}\n"
    }

    /// Creates a store at version "Library" filled with `seedJSON(people:)`.
    static func makeStore(at path: String, people: Int = 300) throws {
        let seed = path + ".seed.json"
        try Data(seedJSON(people: people).utf8).write(to: URL(fileURLWithPath: seed))
        defer { try? FileManager.default.removeItem(atPath: seed) }
        _ = try Store.create(at: path, bundle: library, version: "Library", seed: seed)
    }

    /// The store's full export, made in this process (the store is opened and closed again).
    static func export(_ path: String) throws -> String {
        let output = path + ".export.json"
        defer { try? FileManager.default.removeItem(atPath: output) }
        try Store.open(at: path, bundle: library).exportJSON(to: output)
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    /// `PRAGMA integrity_check` on a read-only connection.
    static func integrity(_ path: String) throws -> String {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        return try connection.rows("PRAGMA integrity_check").map { row in
            if case .text(let text)? = row.first { return text }
            return "\(row)"
        }.joined(separator: "\n")
    }

    /// The store's version name, as the inspector finds it.
    static func version(_ path: String) throws -> String? {
        switch try StoreInspector.inspect(path: path, bundle: library).state {
        case .current(let version), .older(let version, _): return version
        default: return nil
        }
    }
}
