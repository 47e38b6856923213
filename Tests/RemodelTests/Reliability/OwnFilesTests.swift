import Foundation
import Testing

@testable import Remodel

/// Remodel writes only files it made (DESIGN.md, Migration 14; issue 40, item 5). With
/// `store.sqlite.remodel-lock` hard-linked to a user's file, `migrate` used to exit 0 with the lock's pid and
/// heartbeat written into the user's file. Now every path a command writes, replaces or removes — the lock, the
/// store being built and its side files, a step's store, the backup, its record and the record's new file, the
/// backup a rollback puts back, a fleet's report, `create`'s and `import-core-data`'s new store, `extract-model`'s
/// bundle, `generate`'s files, `infer --output`, `export --output` — is refused, naming it, when a hard link, a
/// symbolic link, a FIFO or a folder stands there; the user's file (the link's target) keeps its bytes, what stands
/// there stays, and so does the store.
@Suite(.tags(.slow), .skippable(.slow))
struct OwnFilesTests {
    /// What a user may have put at a path Remodel writes.
    enum Intruder: String, CaseIterable {
        case hardLink, symbolicLink, fifo, folder

        /// Puts it at `path`, pointing at (or holding a copy of) the user's file.
        func make(at path: String, user: String) throws {
            switch self {
            case .hardLink: try #require(link(user, path) == 0)
            case .symbolicLink: try #require(symlink(user, path) == 0)
            case .fifo: try #require(mkfifo(path, 0o644) == 0)
            case .folder:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                try FileManager.default.copyItem(atPath: user, toPath: path + "/inside")
            }
        }

        /// What the refusal says stands there.
        func described(user: String) -> String {
            switch self {
            case .hardLink: return "a hard link: the same file as 1 other name"
            case .symbolicLink: return "a symbolic link to \(user)"
            case .fifo: return "a FIFO (a named pipe)"
            case .folder: return "a folder"
            }
        }

        /// Whether it is still there as it was made.
        func isThere(at path: String) -> Bool {
            var status = stat()
            guard lstat(path, &status) == 0 else { return false }
            switch self {
            case .hardLink: return status.st_mode & S_IFMT == S_IFREG && status.st_nlink == 2
            case .symbolicLink: return status.st_mode & S_IFMT == S_IFLNK
            case .fifo: return status.st_mode & S_IFMT == S_IFIFO
            case .folder: return status.st_mode & S_IFMT == S_IFDIR
            }
        }
    }

    /// A path a command writes, and the command.
    struct Role: Sendable, CustomTestStringConvertible {
        var name: String
        /// The path, in the case's folder.
        var path: String
        /// The command's arguments; `{}` is the case's folder.
        var arguments: [String]
        /// Run first, before the intruder is put there (a migration that keeps a backup, for a rollback).
        var before: [String] = []
        /// Whether the refusal is the one that never replaces anything there (the new store or bundle of a command
        /// that makes one), whose words are its own; else Remodel's "not a file Remodel made".
        var neverReplaces = false

        var testDescription: String { name }
    }

    static let migrate = ["migrate", "{}/store.sqlite", "--model", "{}/Shop.xcdatamodeld", "--quiet"]
    static let roles: [Role] = [
        Role(name: "the migration lock", path: "store.sqlite.remodel-lock", arguments: migrate),
        Role(name: "the store being built", path: "store.sqlite.remodel-migrating", arguments: migrate),
        Role(name: "its journal", path: "store.sqlite.remodel-migrating-journal", arguments: migrate),
        Role(name: "its log", path: "store.sqlite.remodel-migrating-wal", arguments: migrate),
        Role(name: "a step's store", path: "store.sqlite.remodel-step-1", arguments: migrate + ["--step-by-step"]),
        Role(name: "the backup", path: "store.sqlite.remodel-backup", arguments: migrate + ["--keep-backup"]),
        Role(
            name: "the backup's record", path: "store.sqlite.remodel-backup.json",
            arguments: migrate + ["--keep-backup"]),
        Role(
            name: "the record's new file", path: "store.sqlite.remodel-backup.json.new",
            arguments: migrate + ["--keep-backup"]),
        Role(
            name: "the backup a rollback puts back", path: "store.sqlite.remodel-backup",
            arguments: ["rollback", "{}/store.sqlite", "--quiet"], before: migrate + ["--keep-backup"]),
        Role(name: "a fleet's report", path: "report.jsonl", arguments: migrate + ["--report", "{}/report.jsonl"]),
        Role(
            name: "create's new store", path: "new.sqlite",
            arguments: ["create", "{}/new.sqlite", "--model", "{}/Shop.xcdatamodeld", "--quiet"],
            neverReplaces: true),
        Role(
            name: "infer --output", path: "out.xml",
            arguments: ["infer", "{}/Shop.xcdatamodeld", "--from", "Shop", "--to", "Shop 2", "--output", "{}/out.xml"]),
        Role(
            name: "export --output", path: "out.json",
            arguments: ["export", "{}/store.sqlite", "--model", "{}/Shop.xcdatamodeld", "--output", "{}/out.json"]),
        Role(
            name: "generate's files", path: "Records/ShopSchema.swift",
            arguments: ["generate", "{}/Shop.xcdatamodeld", "--output", "{}/Records", "--quiet"]),
        Role(
            name: "import-core-data's new store", path: "imported.sqlite",
            arguments: [
                "import-core-data", "{}/Zoo.sqlite", "--model", "{}/Zoo.xcdatamodeld", "--into", "{}/imported.sqlite",
                "--quiet",
            ], neverReplaces: true),
        Role(
            name: "extract-model's bundle", path: "Out.xcdatamodeld",
            arguments: ["extract-model", "{}/Zoo.sqlite", "--output", "{}/Out.xcdatamodeld", "--quiet"],
            neverReplaces: true),
    ]

    @Test(arguments: roles) func everyPathIsRefusedWhenRemodelDidNotMakeWhatStandsThere(role: Role) throws {
        for intruder in Intruder.allCases {
            let folder = try TemporaryFolder()
            try Self.setUp(folder)
            let arguments = role.arguments.map { $0.replacingOccurrences(of: "{}", with: folder.path) }
            if !role.before.isEmpty {
                let first = try RemodelProcess.run(
                    role.before.map { $0.replacingOccurrences(of: "{}", with: folder.path) })
                try #require(first.status == 0, "\(first.error)")
                try FileManager.default.removeItem(atPath: folder.file(role.path))
            }
            let user = folder.file("user.txt")
            let path = folder.file(role.path)
            try FileManager.default.createDirectory(
                atPath: FileSystem.folder(of: path), withIntermediateDirectories: true)
            try intruder.make(at: path, user: user)
            let store = try Data(contentsOf: URL(fileURLWithPath: folder.file("store.sqlite")))

            let (status, _, error) = try RemodelProcess.run(arguments)

            let context = "\(role.name), \(intruder.rawValue): \(error)"
            #expect(status != 0, "\(context)")
            if role.neverReplaces {
                #expect(error.contains(path), "\(context)")
            } else {
                #expect(
                    error.contains(
                        "\(path) is \(intruder.described(user: user)), not a file Remodel made: Remodel writes only files it made, so it left it as it is; move it away and try again"
                    ), "\(context)")
            }
            #expect(try String(contentsOfFile: user, encoding: .utf8) == Self.words, "\(context)")
            #expect(intruder.isThere(at: path), "\(context)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("store.sqlite"))) == store, "\(context)")
        }
    }

    private static let words = "the user's own words\n"

    /// The user's file, the model Shop (three versions), a store at Shop, and a Core Data store of Zoo with its
    /// model and compiled model.
    private static func setUp(_ folder: TemporaryFolder) throws {
        _ = try folder.write(words, to: "user.txt")
        let name = #"<attribute name="name" optional="YES" attributeType="String"/>"#
        let price = #"<attribute name="price" optional="YES" attributeType="Double" usesScalarValueType="YES"/>"#
        let bundle = try BundleWriting.write(
            "Shop", in: folder.path,
            versions: [
                ("Shop", #"<entity name="Item">\#(name)</entity>"#),
                ("Shop 2", #"<entity name="Item">\#(name)\#(price)</entity>"#),
                ("Shop 3", #"<entity name="Item">\#(name)\#(price)</entity><entity name="Tag">\#(name)</entity>"#),
            ])
        _ = try Store.create(
            at: folder.file("store.sqlite"), bundle: try ModelBundle(contentsOf: bundle), version: "Shop",
            seed: try folder.write(#"{"Item": [{"_pk": 1, "name": "cup"}]}"#, to: "seed.json"))
        let zoo = try CoreDataStoreBuilder.zoo(at: folder.file("Zoo.sqlite"))
        let zooBundle = try BundleWriting.write(
            "Zoo", in: folder.path, versions: [("Zoo 1", CoreDataStoreBuilder.zooEntities)])
        try SQLiteConnection(path: zoo, mode: .readWrite).run(
            "UPDATE Z_MODELCACHE SET Z_CONTENT = ?",
            [.blob(Data(ModelCacheWriter.cache(of: try ModelBundle(contentsOf: zooBundle).currentVersion)))])
    }
}
