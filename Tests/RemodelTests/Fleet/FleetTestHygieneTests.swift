import Foundation
import Testing

/// The fleet tests share the machine with other test runs: each run's template stores are its own, made
/// in a folder of its own and removed when it ends; another run's folder is left alone, in use or not.
struct FleetTestHygieneTests {
    @Test func aRunOfTheFleetTestsLeavesOtherRunsFoldersAndRemovesItsOwn() throws {
        let others = NSTemporaryDirectory() + "remodel-fleet-templates-\(Int32.max)"
        try FileManager.default.createDirectory(atPath: others, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: others) }
        let marker = others + "/library1.sqlite"
        #expect(FileManager.default.createFile(atPath: marker, contents: Data("another run's".utf8)))
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))

        let child = try ChildTest.start("oneResultPerStoreAndOnePlanPerSourceVersion", environment: [:])
        let outcome = child.wait()
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.error.contains("oneResultPerStoreAndOnePlanPerSourceVersion() passed"), "\(outcome)")
        #expect(FileManager.default.contents(atPath: marker) == Data("another run's".utf8))
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
        let left = after.subtracting(before).filter { $0.hasPrefix("remodel-fleet-templates-") }
        #expect(left.isEmpty, "the child left its templates: \(left)")
    }
}
