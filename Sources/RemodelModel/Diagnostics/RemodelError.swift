/// An error Remodel throws, with everything a person needs to find the cause:
/// the file and position, the entity, the property and the object (`_pk`).
///
/// Errors are values: match on ``code`` (new codes may be added), print
/// ``description`` for one clear sentence.
///
/// For example:
/// ```swift
/// do {
///     try store.importJSON(from: url)
/// } catch let error as RemodelError where error.code == .invalidValue {
///     print(error) // Person _pk 3 attribute "age": expected an integer, found "old"
/// }
/// ```
public struct RemodelError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        package init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A file or folder could not be read or written.
        public static let io = Code("io")
        /// A model file is missing, malformed or not supported.
        public static let invalidModel = Code("invalidModel")
        /// A mapping file or expression is wrong.
        public static let invalidMapping = Code("invalidMapping")
        /// A value does not fit the model (type, required, range, count).
        public static let invalidValue = Code("invalidValue")
        /// SQLite reported an error.
        public static let sqlite = Code("sqlite")
        /// The file at a store path is not a store Remodel can use here (a file in the way of a new
        /// store, an unreadable history); the refusals an app acts on have codes of their own below.
        public static let incompatibleStore = Code("incompatibleStore")
        /// There is no store at the path.
        public static let storeMissing = Code("storeMissing")
        /// The store was written by a newer version of the app: its recorded version is not one this
        /// bundle has (or comes after the current one). Ask the user to update the app.
        public static let newerStore = Code("newerStore")
        /// The store belongs to another model.
        public static let otherModel = Code("otherModel")
        /// The store's recorded version is in the bundle, but that version was edited after the store was
        /// written (its entity hashes differ): a development mistake, not a user's.
        public static let editedVersion = Code("editedVersion")
        /// The file is not a Remodel store: another program's database, or not a database at all.
        public static let notAStore = Code("notAStore")
        /// The store's schema no longer matches the version it records: a model table, join table or column
        /// was dropped or renamed by hand or by another tool (see `SchemaDrift` in Remodel). The store is left untouched;
        /// restore what is missing (or the store from a backup).
        public static let schemaDrift = Code("schemaDrift")
        /// A migration cannot be planned (not inferable, no mapping).
        public static let migrationNotPlannable = Code("migrationNotPlannable")
        /// Validation of migrated data failed.
        public static let validationFailed = Code("validationFailed")
        /// The operation was cancelled.
        public static let cancelled = Code("cancelled")
        /// Another process holds the store.
        public static let locked = Code("locked")
    }

    /// What kind of failure this is.
    public var code: Code {
        get { storage.fields.code }
        set { update { $0.code = newValue } }
    }
    /// One sentence saying what went wrong and, where possible, what to do.
    public var message: String {
        get { storage.fields.message }
        set { update { $0.message = newValue } }
    }
    /// The file position at fault, if any.
    public var location: SourceLocation? {
        get { storage.fields.location }
        set { update { $0.location = newValue } }
    }
    /// The file at fault when there is no position (a store, a folder).
    public var path: String? {
        get { storage.fields.path }
        set { update { $0.path = newValue } }
    }
    /// The entity at fault, if any.
    public var entity: String? {
        get { storage.fields.entity }
        set { update { $0.entity = newValue } }
    }
    /// The attribute or relationship at fault, if any.
    public var property: String? {
        get { storage.fields.property }
        set { update { $0.property = newValue } }
    }
    /// The object at fault (`_pk`), if any.
    public var primaryKey: Int64? {
        get { storage.fields.primaryKey }
        set { update { $0.primaryKey = newValue } }
    }
    /// The underlying error, if any.
    public var cause: (any Error & Sendable)? {
        get { storage.fields.cause }
        set { update { $0.cause = newValue } }
    }
    /// SQLite's result code, for errors with code ``Code/sqlite``.
    public var sqliteCode: Int32? {
        get { storage.fields.sqliteCode }
        set { update { $0.sqliteCode = newValue } }
    }
    /// For a model that `remodel validate` rejects (``Code/invalidModel``): every error it reports, each
    /// printed `path:line:column: error: message [rule]` as `validate` prints it.
    public var diagnostics: [Diagnostic] {
        get { storage.fields.diagnostics }
        set { update { $0.diagnostics = newValue } }
    }

    /// The error's fields, behind one reference: an error is thrown through every `try` of the call chain, and a
    /// value of one pointer costs each of those sites far less code to pass on than a struct of ten fields.
    private var storage: Storage

    private struct Fields: Sendable {
        var code: Code
        var message: String
        var location: SourceLocation?
        var path: String?
        var entity: String?
        var property: String?
        var primaryKey: Int64?
        var cause: (any Error & Sendable)?
        var sqliteCode: Int32?
        var diagnostics: [Diagnostic] = []
    }

    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, location: SourceLocation? = nil, path: String? = nil,
        entity: String? = nil, property: String? = nil, primaryKey: Int64? = nil,
        cause: (any Error & Sendable)? = nil
    ) {
        storage = Storage(
            Fields(
                code: code, message: message, location: location, path: path, entity: entity, property: property,
                primaryKey: primaryKey, cause: cause))
    }

    /// The error in one line: position or path first, then the message.
    public var description: String {
        if let location { return "\(location): \(message)" }
        // The path stays on the error for programs; the line names it once.
        if let path, !message.contains(path) { return "\(path): \(message)" }
        return message
    }
}
