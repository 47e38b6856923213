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
        /// Every entity's version hash equals those of a bundle version.
        case hashes
        /// No version has the same hashes; the version name recorded in the store was found in the bundle.
        case name
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
        /// written by a newer app.
        case newer(versionName: String)
        /// A store whose recorded version is the current one by name, but whose entity hashes match no
        /// version: the version's model was edited after the store was written.
        case modifiedVersion(versionName: String)
        /// A Remodel store of another model.
        case otherModel(name: String)
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
    /// Whether a program stopped in the middle of a write to the store and left the unfinished
    /// transaction in its rollback journal (a *hot journal*, `<store>-journal`). The inspection then
    /// describes the store as it is once that transaction is rolled back, which SQLite does the next
    /// time the store is opened for writing (by the app, ``Store/open(at:bundle:)`` or a migration);
    /// the inspection itself read a private copy and changed nothing.
    public var hasUnfinishedTransaction = false

    /// One sentence saying what the file is and what will happen or what to do (and a second one when
    /// the store has an unfinished transaction).
    public var message: String {
        guard hasUnfinishedTransaction else { return stateMessage }
        return stateMessage
            + " A program stopped in the middle of a write to it and left an unfinished transaction in \(path)-journal: this describes the store once that transaction is rolled back, which SQLite does the next time the store is opened for writing (by the app or `remodel migrate`)."
    }

    private var stateMessage: String {
        switch state {
        case .missing:
            return "There is no store at \(path) yet: it will be created at version \"\(currentVersionName)\"."
        case .current(let version):
            return "The store at \(path) is at the current version \"\(version)\" of model \"\(modelName)\": nothing to do."
        case .older(let version, let match):
            let how = match == .hashes ? "its entity hashes" : "its version name"
            let steps = migrationSteps.map { $0 == 1 ? "1 step" : "\($0) steps" } ?? "several steps"
            return "The store at \(path) is at version \"\(version)\" (recognised by \(how)), older than the current \"\(currentVersionName)\": it must be migrated (\(steps))."
        case .newer(let version):
            return "The store at \(path) is at version \"\(version)\" of model \"\(modelName)\", newer than the current \"\(currentVersionName)\": it was written by a newer version of the app; open it with that version, or use a model bundle that has this version."
        case .modifiedVersion(let version):
            return "The store at \(path) says it is at version \"\(version)\", but its entity hashes match no version of model \"\(modelName)\": that version was edited after the store was written; restore it and put the changes in a new version."
        case .otherModel(let name):
            return "The store at \(path) belongs to model \"\(name)\", not \"\(modelName)\": give the model it was made with, or another store path."
        case .notRemodelStore(let reason):
            return "\(path) is an SQLite database but not a Remodel store (\(reason)): Remodel leaves it untouched; choose another store path."
        case .notSQLite(let reason):
            return "\(path) is not a usable SQLite database (\(reason)): Remodel leaves it untouched; move it away or choose another store path."
        }
    }

    public var description: String { message }
}
