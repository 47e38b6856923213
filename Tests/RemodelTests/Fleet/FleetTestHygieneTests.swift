import Foundation
import Testing

/// The fleet tests share the machine with other test runs: each run's template stores are its own, made
/// in a folder of its own and removed when it ends; another run's folder is left alone, in use or not
/// (before, every run removed every `remodel-fleet-templates-*` folder, those of runs still going included).
@Suite(.tags(.slow), .skippable(.slow)) struct FleetTestHygieneTests {
    @Test func aRunOfTheFleetTestsLeavesOtherRunsFoldersAndRemovesItsOwn() throws {
        let prefixes = ["remodel-fleet-templates-", FleetFolder.templatesPrefix]
        let others = prefixes.map { NSTemporaryDirectory() + $0 + "\(Int32.max)" }
        for folder in others {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: folder + "/library1.sqlite", contents: Data("theirs".utf8)))
        }
        defer { for folder in others { try? FileManager.default.removeItem(atPath: folder) } }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))

        let child = try ChildTest.start("oneResultPerStoreAndOnePlanPerSourceVersion", environment: [:])
        let outcome = child.wait()
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.error.contains("oneResultPerStoreAndOnePlanPerSourceVersion() passed"), "\(outcome)")
        for folder in others {
            #expect(
                FileManager.default.contents(atPath: folder + "/library1.sqlite") == Data("theirs".utf8), "\(folder)")
        }
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
        let left = after.subtracting(before).filter { name in prefixes.contains { name.hasPrefix($0) } }
        #expect(left.isEmpty, "the child left its templates: \(left)")
    }
}
