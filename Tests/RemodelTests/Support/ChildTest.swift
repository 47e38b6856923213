import Foundation
import Testing

/// Runs one test of this test executable in a child process, for what only another process shows
/// (two apps launching one store): the child test runs only when the variable names it, and is
/// skipped in every other run.
enum ChildTest {
    /// The variable that names the test a child runs.
    static let variable = "REMODEL_CHILD_TEST"

    /// Whether this process is a child started to run `name`.
    static func isChild(_ name: String) -> Bool {
        ProcessInfo.processInfo.environment[variable] == name
    }

    /// This test executable (the process running the tests).
    static var executable: URL {
        let running =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: running)
    }

    /// Starts this test executable running the one test `name` (a function name, unique in the suite), with
    /// `environment`; the test runs whatever tags the parent run leaves out (`REMODEL_SKIP_TAGS`).
    static func start(_ name: String, environment: [String: String]) throws -> Reliability.Child {
        try Reliability.Child(
            executable, ["--testing-library", "swift-testing", "--filter", name],
            environment: environment.merging([variable: name, "REMODEL_SKIP_TAGS": ""]) { $1 })
    }
}
