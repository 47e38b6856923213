import Foundation
import Testing

/// Replays every input the fuzzers once crashed on, and hostile inputs written by hand (entity
/// expansion, external entities, nesting thousands deep, invalid UTF-8, values out of every range; kept
/// in `Tests/RemodelTests/Fixtures/Reliability/Fuzz/<target>/`), through the same checks the fuzz
/// targets run, so a fixed crash stays fixed in the normal suite.
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Reliability/Fuzz")

    /// One reproducer: the target it belongs to and its file.
    struct Input: Sendable, CustomTestStringConvertible {
        var target: String
        var file: String
        var testDescription: String { "\(target)/\(file)" }
    }

    static var inputs: [Input] {
        ["model", "mapping", "expression", "model-cache", "metadata", "archive"].flatMap { target in
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? []
            return files.filter { !$0.hasPrefix(".") }.sorted().map { Input(target: target, file: $0) }
        }
    }

    @Test(arguments: inputs) func reproducerNoLongerCrashes(input: Input) throws {
        let bytes = Array(
            try Data(contentsOf: Self.folder.appendingPathComponent(input.target).appendingPathComponent(input.file)))
        switch input.target {
        case "model": FuzzChecks.model(bytes)
        case "mapping": FuzzChecks.mapping(bytes)
        case "model-cache": FuzzChecks.modelCache(bytes)
        case "metadata": FuzzChecks.metadata(bytes)
        case "archive": FuzzChecks.archive(bytes)
        default: FuzzChecks.expression(bytes)
        }
    }

    /// Each target's folder holds inputs (a hostile input kept by hand where the fuzzer has found no crash),
    /// so the replay above always runs something.
    @Test func everyTargetHasInputsToReplay() {
        for target in ["model", "mapping", "expression"] {
            #expect(Self.inputs.contains { $0.target == target }, "no input in Fuzz/\(target)")
        }
    }

    /// The checks themselves run on the sample files (so a broken check shows up without fuzzing).
    @Test func checksAcceptTheSamples() throws {
        let root = ValidationSupport.packageRoot
        for version in ["Library", "Library 2", "Library 3"] {
            FuzzChecks.model(
                Array(
                    try Data(
                        contentsOf: root.appendingPathComponent(
                            "Models/Library.xcdatamodeld/\(version).xcdatamodel/contents"))))
        }
        FuzzChecks.mapping(
            Array(try Data(contentsOf: root.appendingPathComponent("Mappings/Library to Library 2.xml"))))
        FuzzChecks.expression(Array("trim($source.firstName + ' ' + $source.lastName)".utf8))
        FuzzChecks.expression(Array("$source.books.@count > 0 ? 'x\\'; DROP TABLE \"Book\"; --' : nil".utf8))
    }
}
