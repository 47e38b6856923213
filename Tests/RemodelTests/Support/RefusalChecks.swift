import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The names Remodel gives its own temporary files, folders and tables (StoreFiles, Store.create, the
/// private copies, the pass's tables): no refusal may show one, the user cannot find or act on it.
let remodelTemporaryNames = [
    ".remodel-migrating", ".remodel-step-", ".remodel-create-", ".remodel-write-", ".remodel-core-data-",
    ".remodel-lock", "remodel-wal-", "remodel-rollback-", "remodel-core-data-", "_remodel_",
]

/// Records an issue when `text` shows one of ``remodelTemporaryNames``.
func expectNoTemporaryName(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let named = remodelTemporaryNames.filter { text.contains($0) }
    #expect(named.isEmpty, "names \(named): \(text)", sourceLocation: sourceLocation)
}

/// What a refusal must say, word for word.
enum RefusalText {
    /// ``RemodelError/message`` alone.
    case message(String)
    /// ``RemodelError/description``: the message with the file (or position) in front, as the command prints it.
    case description(String)

    func check(_ error: RemodelError, sourceLocation: Testing.SourceLocation) {
        switch self {
        case .message(let text): expectSameText(error.message, text, sourceLocation: sourceLocation)
        case .description(let text): expectSameText(error.description, text, sourceLocation: sourceLocation)
        }
    }
}

/// Runs `attempt`, which must be refused with `code` and `text` (which names none of Remodel's temporary
/// files), and checks that every file of `folder` (the store's, with whatever lies beside it) is byte for
/// byte as it was and that nothing was added or removed.
/// - Returns: The error, for what else a test checks (its entity, `_pk`, property).
@discardableResult
func expectRefusedUntouched(
    _ code: RemodelError.Code, _ text: RefusalText, folder: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation, _ attempt: () async throws -> Void
) async throws -> RemodelError? {
    let before = try FolderSnapshot(folder)
    var failure: (any Error)?
    do { try await attempt() } catch { failure = error }
    return try checkRefused(failure, code, text, folder: folder, before: before, sourceLocation: sourceLocation)
}

/// ``expectRefusedUntouched(_:_:folder:sourceLocation:_:)-(_,_,_,_,()asyncthrows->Void)`` for work that
/// does not wait.
@discardableResult
func expectRefusedUntouched(
    _ code: RemodelError.Code, _ text: RefusalText, folder: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation, _ attempt: () throws -> Void
) throws -> RemodelError? {
    let before = try FolderSnapshot(folder)
    var failure: (any Error)?
    do { try attempt() } catch { failure = error }
    return try checkRefused(failure, code, text, folder: folder, before: before, sourceLocation: sourceLocation)
}

/// What both `expectRefusedUntouched` check once the attempt is over: it threw a ``RemodelError`` of `code`
/// saying `text` without a temporary name, and the folder is as it was.
private func checkRefused(
    _ failure: (any Error)?, _ code: RemodelError.Code, _ text: RefusalText, folder: String, before: FolderSnapshot,
    sourceLocation: Testing.SourceLocation
) throws -> RemodelError? {
    var caught: RemodelError?
    switch failure {
    case nil:
        Issue.record("not refused", sourceLocation: sourceLocation)
    case let error as RemodelError:
        caught = error
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        text.check(error, sourceLocation: sourceLocation)
        expectNoTemporaryName(error.description, sourceLocation: sourceLocation)
    case let error?:
        throw error
    }
    let after = try FolderSnapshot(folder)
    #expect(after == before, "the folder changed: before \(before); after \(after)", sourceLocation: sourceLocation)
    return caught
}

/// Runs `remodel arguments…`, which must exit with `status` and print exactly `error` on standard error
/// (and nothing on standard output), leaving every file of `folder` byte for byte as it was.
func expectCommandRefusedUntouched(
    _ arguments: [String], status: Int32 = 1, error: String, folder: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
    let before = try FolderSnapshot(folder)
    let result = try RemodelProcess.run(arguments)
    #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
    expectSameText(result.error, error, sourceLocation: sourceLocation)
    expectNoTemporaryName(result.error, sourceLocation: sourceLocation)
    #expect(result.output == "", sourceLocation: sourceLocation)
    let after = try FolderSnapshot(folder)
    #expect(after == before, "the folder changed: before \(before); after \(after)", sourceLocation: sourceLocation)
}
