import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A store path that is a symbolic link — to a file in another folder, relative, or a chain of links —
/// is migrated where the links lead: the target file is replaced in its own folder (temporary files,
/// backup and lock beside it) and every link is kept. (Before: the link was replaced by the migrated
/// file and its target stayed at the old version, the app's data split over two files.)
@Suite struct SymbolicLinkStoreTests {
    static let people = 30
    static let expected = Result { try StoreStates.libraryExports(people: people) }

    /// `root/data/real.sqlite`, reached as `root/app/store.sqlite` → `../links/middle.sqlite` →
    /// `<root>/data/real.sqlite` (a relative link, then an absolute one into another folder).
    private struct Layout {
        let root: TemporaryFolder
        var store: String { root.file("app/store.sqlite") }
        var middle: String { root.file("links/middle.sqlite") }
        var target: String { root.file("data/real.sqlite") }

        init() throws {
            root = try TemporaryFolder()
            for folder in ["app", "links", "data"] {
                try FileManager.default.createDirectory(atPath: root.file(folder), withIntermediateDirectories: false)
            }
            try FileManager.default.createSymbolicLink(atPath: middle, withDestinationPath: target)
            try FileManager.default.createSymbolicLink(atPath: store, withDestinationPath: "../links/middle.sqlite")
        }

        func contents(_ folder: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: root.file(folder)).sorted()
        }

        func expectLinksKept(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            #expect(
                try FileManager.default.destinationOfSymbolicLink(atPath: store) == "../links/middle.sqlite",
                sourceLocation: sourceLocation)
            #expect(
                try FileManager.default.destinationOfSymbolicLink(atPath: middle) == target,
                sourceLocation: sourceLocation)
            #expect(try contents("app") == ["store.sqlite"], sourceLocation: sourceLocation)
            #expect(try contents("links") == ["middle.sqlite"], sourceLocation: sourceLocation)
        }
    }

    @Test func migrateReplacesTheTargetAndKeepsTheLinks() throws {
        let expected = try Self.expected.get()
        let layout = try Layout()
        try Reliability.makeStore(at: layout.target, people: Self.people)
        // What an interrupted migration left beside the target is cleaned up there.
        try Data("left over".utf8).write(to: URL(fileURLWithPath: layout.target + ".remodel-migrating"))
        let outcome = try Reliability.remodel(Reliability.migrateArguments(layout.store) + ["--keep-backup"])
        #expect(outcome.status == 0, "\(outcome)")
        try layout.expectLinksKept()
        // The backup's record (for `remodel rollback`) is beside it, where the links lead.
        #expect(
            try layout.contents("data") == [
                "real.sqlite", "real.sqlite.remodel-backup", "real.sqlite.remodel-backup.json",
            ])
        #expect(outcome.output.contains("kept as \(layout.target).remodel-backup"), "\(outcome)")
        #expect(try Reliability.export(layout.target) == expected.new)
        #expect(try Reliability.export(layout.store) == expected.new)
        #expect(try Reliability.export(layout.target + ".remodel-backup") == expected.old)
        let status = try Reliability.status(layout.store)
        #expect(status.output.contains("Next: nothing to do"), "\(status)")
    }

    @Test func launchMigratesTheTargetAndKeepsTheLinks() async throws {
        let expected = try Self.expected.get()
        let layout = try Layout()
        try Reliability.makeStore(at: layout.target, people: Self.people)
        let (store, outcome) = try await Store.launch(
            at: layout.store, bundle: Reliability.library,
            options: MigrationOptions(mappingsDirectory: Reliability.mappingsPath))
        guard case .migrated = outcome else {
            Issue.record("expected a migration, got \(outcome)")
            return
        }
        #expect(try store.exportJSONString() == expected.new)
        try layout.expectLinksKept()
        #expect(try layout.contents("data") == ["real.sqlite"])
    }

    /// A link to nothing yet: the store is created where it leads, and the link kept.
    @Test func createThroughALinkToNothingMakesTheTarget() throws {
        let layout = try Layout()
        _ = try Store.create(at: layout.store, bundle: Reliability.library, version: "Library")
        try layout.expectLinksKept()
        #expect(try layout.contents("data") == ["real.sqlite"])
        #expect(try Reliability.version(layout.target) == "Library")
    }

    @Test func aLoopOfLinksIsRefusedWithOneSentence() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.file("a.sqlite"), withDestinationPath: "b.sqlite")
        try FileManager.default.createSymbolicLink(atPath: folder.file("b.sqlite"), withDestinationPath: "a.sqlite")
        let outcome = try Reliability.migrate(folder.file("a.sqlite"))
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.error.contains("symbolic links"), "\(outcome)")
        #expect(try folder.contents() == ["a.sqlite", "b.sqlite"])
    }
}
