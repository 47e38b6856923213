import Foundation
import Remodel

/// The hand-written limit of a step made on a copy of the store, as issue 11 states it: a byte copy of
/// the file beside it (the kernel's `copy_file_range`, as the library copies), the step's SQL on the copy
/// in one transaction with no journal and no syncing, the metadata rows of the target version (copied
/// from an empty store of it, made before timing, so the result can be compared with the library's),
/// then `fsync`, rename over the original, `fsync` of the folder. No lock, no checks, no progress.
enum CopyLimit {
    /// Seconds and I/O of each part: `copy`, `sql`, `replace`.
    static func run(storeAt path: String, template: String, statements: [String]) throws -> PartClock {
        let copy = path + ".handwritten"
        try? FileManager.default.removeItem(atPath: copy)
        var clock = PartClock()
        try KernelCopy.copy(path, to: copy)
        clock.end("copy")
        do {
            let connection = try SQLiteConnection(path: copy, mode: .readWrite)
            try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16384")
            try connection.attach(path: template, as: "template", readOnly: true)
            try connection.execute("BEGIN")
            for statement in statements { try connection.execute(statement) }
            try connection.execute("DELETE FROM main.\"_RemodelMetadata\"")
            try connection.execute("INSERT INTO main.\"_RemodelMetadata\" SELECT * FROM template.\"_RemodelMetadata\"")
            try connection.execute("COMMIT")
            try connection.detach("template")
        }
        clock.end("sql")
        try HandWritten.replace(path, with: copy)
        clock.end("replace")
        return clock
    }

    /// Makes the empty store of the step's second version whose metadata the limit copies, runs the limit,
    /// and records its parts.
    static func measure(storeAt path: String, step: CopyStep, result: inout ScenarioResult) throws {
        let template = path + ".template"
        try? FileManager.default.removeItem(atPath: template)
        _ = try Store.create(at: template, bundle: try step.model.bundle(), version: step.model.secondVersion)
        defer { try? FileManager.default.removeItem(atPath: template) }
        let start = Measure.now()
        let before = IOCounters.now()
        let clock = try run(storeAt: path, template: template, statements: step.statements)
        result.seconds = Measure.now() - start
        IOCounters.record(since: before, into: &result)
        clock.record(into: &result)
    }
}

/// A one-step scenario measured against ``CopyLimit``: the model whose first version its store is at
/// (the library migrates it to the second), and the SQL that makes the same change by hand on a copy.
struct CopyStep {
    let model: SourceModel
    let statements: [String]

    /// `addAttribute` or `oneOfTen`, also named by their limits (`addAttributeLimit`).
    static func named(_ scenario: String) -> CopyStep? {
        switch scenario {
        case "addAttribute", "addAttributeLimit": return .addAttribute
        case "oneOfTen", "oneOfTenLimit": return .oneOfTen
        default: return nil
        }
    }
}

/// The bench's own byte copy through the kernel (`copy_file_range`, looked up at run time since the
/// system module does not declare it), written apart from the library's so the limit owes it nothing.
enum KernelCopy {
    private typealias Function =
        @convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32) -> Int

    static func copy(_ source: String, to destination: String) throws {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "copy_file_range") else {
            throw BenchError("this system has no copy_file_range")
        }
        let copyFileRange = unsafeBitCast(symbol, to: Function.self)
        let input = open(source, O_RDONLY)
        guard input >= 0 else { throw BenchError("cannot open \(source)") }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard output >= 0 else { throw BenchError("cannot create \(destination)") }
        defer { close(output) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw BenchError("cannot read the size of \(source)") }
        var left = Int(info.st_size)
        while left > 0 {
            let done = copyFileRange(input, nil, output, nil, left, 0)
            guard done > 0 else {
                throw BenchError("copy_file_range stopped with \(left) bytes left: \(String(cString: strerror(errno)))")
            }
            left -= done
        }
    }
}
