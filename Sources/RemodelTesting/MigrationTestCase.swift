public import Remodel

/// One version's store migrated to the head: a value to pass to a parameterized test, whose ``run(_:)``
/// throws a ``MigrationTestFailure`` naming the version, entity, property and object when the result is not
/// the one expected.
///
/// For example, with XCTest:
/// ```swift
/// func testEveryVersionMigrates() async throws {
///     for migration in MigrationMatrix(model: modelPath, mappings: mappingsPath).cases() {
///         try await migration.run()
///     }
/// }
/// ```
public struct MigrationTestCase: Sendable, CustomStringConvertible {
    let matrix: MigrationMatrix
    /// The version the store starts at.
    public let version: String
    /// The hand-written data the store is made from, or nil for generated data.
    public let fixture: String?
    /// What the case expects.
    public let expectation: MigrationExpectation

    init(matrix: MigrationMatrix, version: String, fixture: String?, expectation: MigrationExpectation) {
        self.matrix = matrix
        self.version = version
        self.fixture = fixture
        self.expectation = expectation
    }

    /// The version migrated to.
    public var head: String { matrix.head ?? "" }

    /// `Library 2 → Library 3`, with the fixture's file name when there is one.
    public var description: String {
        guard !version.isEmpty else { return "the model" }
        let data = fixture.map { " (\($0.split(separator: "/").last.map(String.init) ?? $0))" } ?? ""
        return "\(version) → \(head)\(data)"
    }

    /// Migrates the case's store and checks it; `assertions` runs on the migrated store when it migrated.
    ///
    /// For example:
    /// ```swift
    /// try await migration.run { store in
    ///     #expect(try store.objectCount(of: "Book") > 0)
    /// }
    /// ```
    /// - Parameter assertions: Checks of your own; an error it throws fails the case.
    /// - Returns: The result, when it is the one expected.
    /// - Throws: ``MigrationTestFailure`` when it is not.
    @discardableResult
    public func run(_ assertions: (@Sendable (MigratedStore) async throws -> Void)? = nil) async throws
        -> MigrationTestResult
    {
        let result = await result(assertions)
        guard result.isExpected else { throw MigrationTestFailure(result: result) }
        return result
    }

    /// Migrates the case's store and checks it, returning the result whatever it is.
    public func result(_ assertions: (@Sendable (MigratedStore) async throws -> Void)? = nil) async
        -> MigrationTestResult
    {
        await MigrationCaseRun(testCase: self).run(assertions)
    }
}

/// What a case's assertions get: the migrated store, a copy of the store before, and the migration's report.
/// Both files are removed when the case ends.
public struct MigratedStore: Sendable {
    /// The migrated store.
    public let path: String
    /// A copy of the store as it was before the migration.
    public let originalPath: String
    /// The model.
    public let bundle: ModelBundle
    /// What the migration did.
    public let report: MigrationReport

    /// Opens the migrated store.
    /// - Throws: ``/RemodelModel/RemodelError`` when it cannot be opened.
    public func open() throws -> Store {
        try Store.open(at: path, bundle: bundle)
    }

    /// The migrated store as `remodel export` writes it.
    /// - Throws: ``/RemodelModel/RemodelError`` when it cannot be read.
    public func exportJSON() throws -> String {
        try MigrationCaseRun.export(path: path, bundle: bundle)
    }

    /// Objects of a concrete entity in the migrated store.
    /// - Throws: ``/RemodelModel/RemodelError`` when the head version has no such entity or the store cannot be read.
    public func objectCount(of entity: String) throws -> Int {
        try MigrationCaseRun.count(entity, path: path, version: bundle.version(named: report.targetVersion))
    }

    /// Objects of a concrete entity in the store before the migration.
    /// - Throws: ``/RemodelModel/RemodelError`` when the source version has no such entity or the store cannot be read.
    public func originalObjectCount(of entity: String) throws -> Int {
        try MigrationCaseRun.count(entity, path: originalPath, version: bundle.version(named: report.sourceVersion))
    }
}
