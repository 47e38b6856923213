import Foundation
import Testing

@testable import Remodel

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

/// Runs `attempt`, which must be refused with `code` and `text`, and checks that every file of `folder` (the
/// store's, with whatever lies beside it) is byte for byte as it was and that nothing was added or removed.
/// - Returns: The error, for what else a test checks (its entity, `_pk`, property).
@discardableResult
func expectRefusedUntouched(
    _ code: RemodelError.Code, _ text: RefusalText, folder: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation, _ attempt: () async throws -> Void
) async throws -> RemodelError? {
    let before = try FolderSnapshot(folder)
    var caught: RemodelError?
    do {
        try await attempt()
        Issue.record("not refused", sourceLocation: sourceLocation)
    } catch let error as RemodelError {
        caught = error
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        text.check(error, sourceLocation: sourceLocation)
    }
    let after = try FolderSnapshot(folder)
    #expect(after == before, "the folder changed: before \(before); after \(after)", sourceLocation: sourceLocation)
    return caught
}

/// ``expectRefusedUntouched(_:_:folder:sourceLocation:_:)-(_,_,_,_,()asyncthrows->Void)`` for work that
/// does not wait.
@discardableResult
func expectRefusedUntouched(
    _ code: RemodelError.Code, _ text: RefusalText, folder: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation, _ attempt: () throws -> Void
) throws -> RemodelError? {
    let before = try FolderSnapshot(folder)
    var caught: RemodelError?
    do {
        try attempt()
        Issue.record("not refused", sourceLocation: sourceLocation)
    } catch let error as RemodelError {
        caught = error
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        text.check(error, sourceLocation: sourceLocation)
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
    #expect(result.output == "", sourceLocation: sourceLocation)
    let after = try FolderSnapshot(folder)
    #expect(after == before, "the folder changed: before \(before); after \(after)", sourceLocation: sourceLocation)
}
