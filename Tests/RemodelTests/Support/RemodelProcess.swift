import Foundation
import Testing

/// Runs the built `remodel` executable.
enum RemodelProcess {
    /// The `remodel` executable beside the test products (`.build/<triple>/debug/remodel`).
    static var executable: URL? {
        let candidates = [
            Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("remodel"),
            ValidationSupport.packageRoot.appendingPathComponent(".build/debug/remodel"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `remodel arguments…` in the package's root folder, with `environment` added to this process's;
    /// returns the exit status, standard output and standard error, which ``InternalValues`` checks.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String, error: String
    ) {
        let executable: URL = try #require(Self.executable, "build the remodel product first")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = ValidationSupport.packageRoot
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes to the end concurrently, so neither can fill up and block the process.
        let errorData = Collector<Data>()
        let reader = Thread { errorData.append(error.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errorData.values.isEmpty { Thread.sleep(forTimeInterval: 0.001) }
        let (printed, failed) = (
            String(decoding: outputData, as: UTF8.self), String(decoding: errorData.values[0], as: UTF8.self)
        )
        InternalValues.check(arguments, output: printed, error: failed)
        return (process.terminationStatus, printed, failed)
    }
}
