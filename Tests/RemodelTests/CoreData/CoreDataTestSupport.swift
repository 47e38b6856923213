import Foundation
import Testing

@testable import Remodel

/// The real Core Data stores of `shared/corpus-coredata` (beside the repository) and helpers to read
/// them independently of the importer.
enum CoreDataCorpus {
    /// `shared/corpus-coredata`.
    static let folder = ValidationSupport.packageRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/corpus-coredata"
    ).path

    /// Whether the corpus is there to test against (tests skip without it, as the model corpus tests do).
    static var exists: Bool { FileManager.default.fileExists(atPath: folder + "/SOURCES.tsv") }

    /// One row of SOURCES.tsv: a store, the bundle it goes with, the version that wrote it.
    struct Fixture: Sendable, CustomTestStringConvertible {
        /// `duckduckgo__BrowserServicesKit`.
        var repository: String
        /// The store's path in the repository's folder (`UserData_DB_v1/Data.sqlite`).
        var store: String
        /// The bundle's folder name (`BookmarksModel.xcdatamodeld`).
        var bundle: String
        /// The matched version's name (`BookmarksModel 2`).
        var version: String
        var testDescription: String { "\(repository)/\(store)" }

        /// The store in the shared folder: never opened there, not even read-only (SQLite would make or change its
        /// `-wal` and `-shm` beside it), only copied (``copyStore(into:)``).
        fileprivate var storePath: String { CoreDataCorpus.folder + "/" + repository + "/" + store }
        /// The model's bundle, which is only read.
        var bundlePath: String { CoreDataCorpus.folder + "/" + repository + "/" + bundle }

        /// Copies the store with its side files into `folder` (which must exist); returns the copy's path.
        func copyStore(into folder: String) throws -> String { try CoreDataCorpus.copy(storePath, into: folder) }

        /// Whether the store has Core Data's model cache (every one but the oldest, framework 419): read on a copy,
        /// since a read-only connection to a store in WAL mode still writes its `-shm` (and makes a `-wal`).
        var hasModelCache: Bool {
            guard let folder = try? TemporaryFolder(), let copy = try? copyStore(into: folder.path),
                let connection = try? SQLiteConnection(path: copy, mode: .readOnly)
            else { return false }
            return (try? connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'"))
                == .integer(1)
        }
    }

    /// Every fixture of SOURCES.tsv (none when the corpus is absent).
    static let fixtures: [Fixture] = {
        guard let text = try? String(contentsOfFile: folder + "/SOURCES.tsv", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 7, let local = fields[6].split(separator: " ").dropFirst().first else { return nil }
            let matched = fields[4].split(separator: "/")
            guard matched.count == 2 else { return nil }
            let repository = fields[0].replacingOccurrences(of: "/", with: "__")
            return Fixture(
                repository: repository, store: String(local), bundle: String(matched[0]),
                version: String(matched[1].dropLast(".xcdatamodel".count)))
        }
    }()

    /// Copies a store and its side files (`-wal`, `-shm`) into `folder` under the same file name.
    private static func copy(_ store: String, into folder: String) throws -> String {
        let name = URL(fileURLWithPath: store).lastPathComponent
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            let copy = folder + "/" + name + suffix
            try FileManager.default.copyItem(atPath: store + suffix, toPath: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        }
        return folder + "/" + name
    }
}

/// Reads a Core Data store the plain way (a private copy opened for writing, so SQLite reads its
/// log) and says what each object should become in Remodel, computed in Swift, not in the importer's SQL.
struct CoreDataReference {
    let connection: SQLiteConnection

    init(copyOf fixture: CoreDataCorpus.Fixture, in folder: TemporaryFolder) throws {
        try FileManager.default.createDirectory(atPath: folder.file("reference"), withIntermediateDirectories: true)
        connection = try SQLiteConnection(path: try fixture.copyStore(into: folder.file("reference")), mode: .readWrite)
    }

    /// The entity number of each entity name in `Z_PRIMARYKEY`.
    func entityNumbers() throws -> [String: Int64] {
        var numbers: [String: Int64] = [:]
        for row in try connection.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY") {
            if case .text(let name) = row[0], case .integer(let number) = row[1] { numbers[name] = number }
        }
        return numbers
    }

    /// The value Remodel keeps for a Core Data value of an attribute type.
    static func expected(_ value: SQLiteValue, type: AttributeType) -> SQLiteValue {
        switch (type, value) {
        case (.date, .real(let seconds)): return .real(seconds + 978_307_200)
        case (.date, .integer(let seconds)): return .real(Double(seconds) + 978_307_200)
        case (.double, .integer(let number)), (.float, .integer(let number)): return .real(Double(number))
        case (.uuid, .blob(let bytes)) where bytes.count == 16:
            let b = Array(bytes)
            return .text(
                UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                        b[15]
                    )
                ).uuidString)
        default: return value
        }
    }
}

/// Every file in a folder and its bytes, to show that an import wrote nothing in it.
func folderBytes(_ path: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: path) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory), isDirectory.boolValue {
            for (inner, data) in try folderBytes(path + "/" + name) { files[name + "/" + inner] = data }
        } else {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
        }
    }
    return files
}
