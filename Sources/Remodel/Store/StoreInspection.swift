/// What is at a store path, as ``StoreInspector/inspect(path:bundle:thorough:)`` found it, with one
/// sentence a person can act on.
///
/// For example:
/// ```swift
/// let inspection = try StoreInspector.inspect(path: "library.sqlite", bundle: bundle)
/// if case .older(let version, _) = inspection.state { print("migrate from \(version)") }
/// print(inspection.message)
/// ```
public struct StoreInspection: Sendable, Hashable, CustomStringConvertible {
    /// How a store's version was recognised.
    public enum VersionMatch: String, Sendable, Hashable {
        /// The store records no version name; its entity hashes equal those of a bundle version.
        case hashes
        /// The version name recorded in the store is a version of the bundle, with the same entity hashes.
        case name
        /// The recorded version name is a former name the bundle declares for one of its versions
        /// (in `.remodel-version-order`), with the same entity hashes.
        case formerName
    }

    /// What the file at the path is.
    public enum State: Sendable, Hashable {
        /// No file: a first launch, the store will be created at the current version.
        case missing
        /// A store at the bundle's current version.
        case current(version: String)
        /// A store at an older version of the bundle: it needs a migration.
        case older(version: String, matchedBy: VersionMatch)
        /// A store of this model at a version the bundle does not have, or one after the current version:
        /// written by a newer app. Refused whatever its entity hashes match: an app downgrade must never
        /// migrate a store backwards.
        case newer(versionName: String)
        /// A store whose recorded version is a version of the bundle, but whose entity hashes differ from
        /// that version's: the version's model was edited after the store was written.
        case modifiedVersion(versionName: String)
        /// A Remodel store of another model.
        case otherModel(name: String)
        /// A store at a version of the bundle whose schema no longer matches that version's layout: a model
        /// table, join table or column was dropped or renamed by hand or by another tool. Refused untouched.
        case schemaDrift(version: String, drifts: [SchemaDrift])
        /// A store whose `_RemodelMetadata` records a layout format newer than this build of Remodel reads
        /// (`formatVersion`): written by a newer app or Remodel, refused untouched like a newer version.
        case newerFormat(formatVersion: Int)
        /// An SQLite database without Remodel's metadata (another program's database).
        case notRemodelStore(reason: String)
        /// Not an SQLite database at all: empty, garbage, truncated or damaged.
        case notSQLite(reason: String)
    }

    /// The store path inspected.
    public let path: String
    /// What was found.
    public let state: State
    /// The bundle's name.
    public let modelName: String
    /// The bundle's current version name.
    public let currentVersionName: String
    /// For an older store, the number of migration steps to the current version.
    public let migrationSteps: Int?
    /// The bundle's version names, oldest first (named in the message about a newer store).
    public var versionNames: [String] = []

    /// Whether the store is at a version the bundle has that comes after its current version (the
    /// bundle's `.xccurrentversion` names an earlier one): `export` reads such a store, `migrate` and
    /// launch refuse it as newer, since they never take a store backwards.
    public var isAfterCurrentVersion: Bool {
        if case .newer(let version) = state { return versionNames.contains(version) }
        return false
    }

    /// The error to throw when the store cannot be opened or migrated as it is: a code an app can act on
    /// (``/RemodelModel/RemodelError/Code/newerStore``, ``/RemodelModel/RemodelError/Code/otherModel``,
    /// ``/RemodelModel/RemodelError/Code/editedVersion``, ``/RemodelModel/RemodelError/Code/notAStore``,
    /// ``/RemodelModel/RemodelError/Code/schemaDrift``, ``/RemodelModel/RemodelError/Code/storeMissing``) and the
    /// message. `nil` for a current or older store.
    public var refusal: RemodelError? {
        let code: RemodelError.Code
        switch state {
        case .current, .older: return nil
        case .missing: code = .storeMissing
        case .newer, .newerFormat: code = .newerStore
        case .schemaDrift: code = .schemaDrift
        case .modifiedVersion: code = .editedVersion
        case .otherModel: code = .otherModel
        case .notRemodelStore, .notSQLite: code = .notAStore
        }
        return RemodelError(code, message, path: path)
    }

    /// The error that refuses this store where it cannot be used as it is: ``refusal``, or, for a current or
    /// older store a caller cannot take either, `code` with the inspection's message.
    func refusal(or code: RemodelError.Code, path: String? = nil) -> RemodelError {
        refusal ?? RemodelError(code, message, path: path ?? self.path)
    }

    /// Whether a program stopped in the middle of a write to the store and left the unfinished
    /// transaction in its rollback journal (a *hot journal*, `<store>-journal`). The inspection then
    /// describes the store as it is once that transaction is rolled back, which SQLite does the next
    /// time the store is opened for writing (by the app, ``Store/open(at:bundle:)-(String,_)`` or a migration);
    /// the inspection itself read a private copy and changed nothing.
    public var hasUnfinishedTransaction = false

    /// For a database Core Data wrote (a ``State/notRemodelStore(reason:)``): the version of the bundle
    /// that wrote it, or `""` when none fits or two fit equally. `nil` for any other file. Import such a
    /// store with `remodel import-core-data`, or from Swift with `Store.importCoreData(from:bundle:into:version:)`
    /// of the `RemodelCoreData` library.
    public internal(set) var coreDataVersion: String?
    /// For a store imported from a Core Data store without its model file, which the bundle adopts
    /// because one of its versions has the store's entity hashes: the model name the import gave it (the
    /// Core Data store's file name, `Data` for `Data.sqlite`). The store takes the bundle's model name at
    /// its next write (an open, a launch, a migration). `nil` for any other store.
    public internal(set) var adoptedModelName: String?
    /// The configuration whose entities the store holds (a store made with `remodel create --configuration`,
    /// ``/RemodelModel/ModelBundle/restricted(toConfiguration:)`` or imported from a Core Data store of one
    /// configuration): the store was inspected against the bundle restricted to it. `nil` for a store of every entity.
    public internal(set) var configuration: String?
    /// The bundle's path, named in the command the message gives for a Core Data store.
    var bundlePath = ""

    /// One sentence saying what the file is and what will happen or what to do (and a second one when
    /// the store has an unfinished transaction).
    public var message: String {
        var text = stateMessage
        if let configuration {
            text += " It holds the entities of configuration \"\(configuration)\" only."
        }
        if let adoptedModelName {
            text +=
                " It was imported from a Core Data store without its model file, as model \"\(adoptedModelName)\"; its entity hashes are those of this version of \"\(modelName)\", which adopts it: it takes the model name \"\(modelName)\" at its next write."
        }
        guard hasUnfinishedTransaction else { return text }
        return text
            + " A program stopped in the middle of a write to it and left an unfinished transaction in \(path)-journal: this describes the store once that transaction is rolled back, which SQLite does the next time the store is opened for writing (by the app or `remodel migrate`)."
    }

    private var stateMessage: String {
        switch state {
        case .missing:
            return "There is no store at \(path) yet: it will be created at version \"\(currentVersionName)\"."
        case .current(let version):
            return
                "The store at \(path) is at the current version \"\(version)\" of model \"\(modelName)\": nothing to do."
        case .older(let version, let match):
            let how: String
            switch match {
            case .hashes: how = "its entity hashes"
            case .name: how = "its version name and hashes"
            case .formerName: how = "a former name of that version, and its hashes"
            }
            let steps = migrationSteps.map { $0 == 1 ? "1 step" : "\($0) steps" } ?? "several steps"
            return
                "The store at \(path) is at version \"\(version)\" (recognised by \(how)), older than the current \"\(currentVersionName)\": it must be migrated (\(steps))."
        case .newer(let version) where isAfterCurrentVersion:
            return
                "The store at \(path) is at version \"\(version)\" of model \"\(modelName)\", which comes after the bundle's current version \"\(currentVersionName)\": it can be read (export), but launch and migrate leave it untouched, as they never take a store backwards; if the app uses \"\(version)\", make it the current version (in Xcode, or in .xccurrentversion)."
        case .newer(let version):
            let known =
                versionNames.isEmpty
                ? "" : " (this bundle has \(versionNames.map { "\"\($0)\"" }.joined(separator: ", ")))"
            return
                "The store at \(path) is at version \"\(version)\" of model \"\(modelName)\", which is not a version before the current \"\(currentVersionName)\"\(known): it was written by a newer version of the app, so it was left untouched; open it with that version of the app (if the version folder was renamed, declare its former name in .remodel-version-order)."
        case .modifiedVersion(let version):
            return
                "The store at \(path) says it is at version \"\(version)\", but its entity hashes differ from that version of model \"\(modelName)\": that version was edited after the store was written; restore it and put the changes in a new version."
        case .schemaDrift(let version, let drifts):
            let rows = drifts.filter { $0.kind == .unplaceableRows }
            guard rows.count == drifts.count else {
                return
                    "The store at \(path) records version \"\(version)\" of model \"\(modelName)\", but its schema no longer matches that version: \(drifts.map(\.description).joined(separator: "; ")). It was changed by hand or by another tool, so Remodel left it untouched: restore what is missing (or the store from a backup), then try again."
            }
            return
                "The store at \(path) records version \"\(version)\" of model \"\(modelName)\", but it has rows that version cannot place: \(rows.map(\.description).joined(separator: "; ")). They were written by hand or by another tool, and exporting or migrating would leave them out, so Remodel left the store untouched: give those rows the \(StoreColumn.entity) of an entity of that table (or delete them), or add their entity to the model in a new version, then try again."
        case .newerFormat(let format):
            return
                "The store at \(path) is in store format \(format), newer than the format \(StoreMetadata.currentFormatVersion) this build of Remodel reads: it was written by a newer version of the app, so it was left untouched; open it with that version of the app."
        case .otherModel(let name):
            return
                "The store at \(path) belongs to model \"\(name)\", not \"\(modelName)\": give the model it was made with, or another store path."
        case .notRemodelStore(let reason):
            if let coreDataVersion { return coreDataMessage(version: coreDataVersion, reason: reason) }
            return
                "\(path) is an SQLite database but not a Remodel store (\(reason)): Remodel leaves it untouched; choose another store path."
        case .notSQLite(let reason):
            return
                "\(path) is not a usable SQLite database (\(reason)): Remodel leaves it untouched; move it away or choose another store path."
        }
    }

    /// What to say about a store Core Data wrote: which version, and the command that imports it.
    private func coreDataMessage(version: String, reason: String) -> String {
        let command = "remodel import-core-data \(path) --model \(bundlePath) --into NEW.sqlite"
        guard !version.isEmpty else {
            return
                "\(path) is a Core Data store, not a Remodel store, and Remodel cannot tell which version of model \"\(modelName)\" wrote it (\(reason)): Remodel leaves it untouched; import it into a new store with `\(command) --version V`, naming the version the app had when it last wrote the store."
        }
        return
            "\(path) is a Core Data store of model \"\(modelName)\" (version \"\(version)\"), not a Remodel store: Remodel leaves it untouched; import it into a new store with `\(command)`, then open or migrate the new store."
    }

    public var description: String { message }
}
