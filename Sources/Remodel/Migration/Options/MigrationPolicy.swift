/// Swift code for one destination entity where expressions are not enough:
/// it sees each source object and returns the destination objects to create —
/// none (skip it), one, or several. Objects are streamed in batches.
///
/// Relationships are still rebuilt by phase 2 from the relationship mappings;
/// a source object's links go to the first object the policy made from it.
///
/// The transform is called once per source object, one call after another in
/// `_pk` order, on a thread of its own: the migration inserts the objects it
/// made meanwhile. Build objects with a literal (`DestinationObject(["a": …])`),
/// which is kept as written, rather than from a dictionary you fill.
///
/// For example:
/// ```swift
/// let split = EntityPolicy(destination: "Person") { source in
///     guard case .text(let full) = source["name"] else { return [] }
///     let parts = full.split(separator: " ", maxSplits: 1).map(String.init)
///     return [DestinationObject(["firstName": .text(parts[0]), "lastName": .text(parts.count > 1 ? parts[1] : "")])]
/// }
/// var options = MigrationOptions()
/// options.policies = [split]
/// ```
public struct EntityPolicy: Sendable {
    /// The destination entity whose objects the policy makes.
    public var destination: String
    /// Makes the destination objects of one source object.
    public var transform: @Sendable (SourceObject) throws -> [DestinationObject]

    /// Creates a policy.
    public init(destination: String, transform: @escaping @Sendable (SourceObject) throws -> [DestinationObject]) {
        self.destination = destination
        self.transform = transform
    }
}

/// SQL access to the store a step is building, handed to hooks and custom validations: the store being
/// built is schema `main`, the store it is built from is attached read-only as `src`.
///
/// For example:
/// ```swift
/// hooks.afterStep = { database in
///     try database.execute("UPDATE Person SET fullName = trim(fullName)")
///     let people = try database.scalar("SELECT count(*) FROM Person")
/// }
/// ```
public final class MigrationStepDatabase {
    /// The step.
    public let step: MigrationStep
    /// The connection itself, for Remodel's own code and tests.
    package let connection: SQLiteConnection

    init(step: MigrationStep, connection: SQLiteConnection) {
        self.step = step
        self.connection = connection
    }

    /// Runs one or more SQL statements that take no values.
    /// - Throws: ``/RemodelModel/RemodelError`` with SQLite's message and the statement.
    public func execute(_ sql: String) throws(RemodelError) {
        try connection.execute(sql)
    }

    /// Runs one statement with bound values (`?`), to completion.
    /// - Throws: ``/RemodelModel/RemodelError`` with SQLite's message and the statement.
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(RemodelError) {
        try connection.run(sql, values)
    }

    /// The rows of a query with bound values (`?`), each as its column values.
    /// - Throws: ``/RemodelModel/RemodelError`` with SQLite's message and the statement.
    public func rows(_ sql: String, _ values: [SQLiteValue] = []) throws(RemodelError) -> [[SQLiteValue]] {
        try connection.rows(sql, values)
    }

    /// The first column of a query's first row, or nil when it has no row.
    /// - Throws: ``/RemodelModel/RemodelError`` with SQLite's message and the statement.
    public func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(RemodelError) -> SQLiteValue? {
        try connection.scalar(sql, values)
    }
}

/// Code to run around each migration step, with SQL access to both stores.
///
/// `beforeStep` runs when the destination tables exist and are empty; `afterStep`
/// runs after relationships are rebuilt and before validation, so what it
/// changes is validated too.
///
/// For example:
/// ```swift
/// var hooks = MigrationHooks()
/// hooks.afterStep = { database in
///     try database.execute("UPDATE Person SET fullName = trim(fullName)")
/// }
/// ```
public struct MigrationHooks: Sendable {
    /// Runs before phase 1 of each step.
    public var beforeStep: (@Sendable (MigrationStepDatabase) throws -> Void)?
    /// Runs after phase 2 of each step, before validation.
    public var afterStep: (@Sendable (MigrationStepDatabase) throws -> Void)?

    /// Creates hooks.
    public init(
        beforeStep: (@Sendable (MigrationStepDatabase) throws -> Void)? = nil,
        afterStep: (@Sendable (MigrationStepDatabase) throws -> Void)? = nil
    ) {
        self.beforeStep = beforeStep
        self.afterStep = afterStep
    }
}
