import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// A migration copies the pages of the tables it drops from the copy after the rest (issue 44), so that reading
/// them next finds them in the file cache: which pages those are is read from the tables' interior pages alone
/// (``BTreePages``), and the copy is the same file whatever the order (``FileCopy``).
@Suite struct OrderedCopyTests {
    /// Tables of random sizes, rows and indexes, on pages of 512 bytes so that a few thousand rows make trees
    /// three and four levels deep: the pages found from the interior pages are exactly SQLite's own list of the
    /// table's and its indexes' pages (`dbstat`), but for the overflow pages of values too large for a leaf.
    @Test func theInteriorPagesNameEveryPageOfATableAndItsIndexes() throws {
        let folder = try TemporaryFolder()
        var random = SystemRandomNumberGenerator()
        var deepest = 0
        for round in 0..<12 {
            let path = folder.file("tables-\(round).sqlite")
            let connection = try SQLiteConnection(path: path, mode: .create)
            try connection.execute("PRAGMA page_size = 512")
            let tables = ["Person", "Book", "Tag"]
            try connection.execute("BEGIN")
            for table in tables {
                try connection.execute("CREATE TABLE \(table) (_pk INTEGER PRIMARY KEY, name TEXT, size INTEGER)")
                if Bool.random(using: &random) {
                    try connection.execute("CREATE INDEX \(table)_name ON \(table) (name)")
                }
                let rows = [0, 1, 30, Int.random(in: 100...6000, using: &random)].randomElement(using: &random)!
                // Now and then a value longer than a page: its overflow pages are named only in the leaves.
                try connection.execute(
                    """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
                    INSERT INTO \(table) SELECT i * 3, printf('%.*c', CASE WHEN i % 97 = 0 THEN 900 ELSE i % 40 END, 'x'),
                    i FROM n
                    """)
            }
            try connection.execute("COMMIT")
            guard
                try connection.rows("SELECT * FROM pragma_compile_options WHERE compile_options = 'ENABLE_DBSTAT_VTAB'")
                    .count == 1
            else {
                Issue.record("this SQLite has no dbstat table to compare with")
                return
            }
            let pageCount = Int(try connection.scalar("PRAGMA page_count")?.integerValue ?? 0)
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor) }
            for table in tables.shuffled(using: &random).prefix(2) {
                let names = try connection.rows("SELECT name FROM sqlite_master WHERE tbl_name = ?", [.text(table)])
                let roots = try connection.rows(
                    "SELECT rootpage FROM sqlite_master WHERE tbl_name = ?", [.text(table)]
                ).compactMap { $0[0].integerValue.map(Int.init) }
                let expected = try connection.rows(
                    "SELECT pageno FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name = ?) AND pagetype <> 'overflow' ORDER BY pageno",
                    [.text(table)]
                ).compactMap { $0[0].integerValue.map(Int.init) }
                let found = BTreePages.pages(roots: roots, descriptor: descriptor, pageSize: 512, pageCount: pageCount)
                #expect(
                    found.map { $0.flatMap { Array($0) } } == expected,
                    "round \(round), \(table) and \(names.count - 1) indexes")
                // Held to a few runs, the answer joins them across gaps: every page is still in it.
                let few = try #require(
                    BTreePages.pages(
                        roots: roots, descriptor: descriptor, pageSize: 512, pageCount: pageCount, maximumRuns: 3))
                #expect(few.count <= 3 && Set(expected).isSubset(of: few.flatMap { Array($0) }), "round \(round)")
                // A page's path is `/`, `/000/`, `/000/001/`…: its slashes count the levels down to it.
                let levels = try connection.scalar(
                    "SELECT max(length(path) - length(replace(path, '/', ''))) FROM dbstat WHERE name = ?",
                    [.text(table)])
                deepest = max(deepest, Int(levels?.integerValue ?? 0))
            }
        }
        #expect(deepest >= 3, "no tree was three levels deep")
    }

    /// Bytes that are no SQLite page give no answer, rather than a wrong one.
    @Test func aFileOfNoBTreeGivesNoPages() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(String(repeating: "not a page ", count: 400), to: "noise")
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        #expect(BTreePages.pages(roots: [2], descriptor: descriptor, pageSize: 512, pageCount: 8) == nil)
        #expect(BTreePages.pages(roots: [9], descriptor: descriptor, pageSize: 512, pageCount: 8) == nil)
    }

    /// Pages named in any order are kept as at most `maximum` runs at every moment (the memory an answer takes
    /// does not grow with the table), and the runs cover every page named, ascending and apart.
    @Test func pageRunsStayFewAndCoverEveryPage() {
        var random = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let maximum = Int.random(in: 2...40, using: &random)
            let pages = (0..<Int.random(in: 0...3000, using: &random)).map { _ in
                Bool.random(using: &random) ? Int.random(in: 1...20_000, using: &random) : 5_000 + round
            }
            var runs = PageRuns(maximum: maximum)
            for page in pages {
                runs.add(page)
                #expect(runs.runs.count <= maximum, "round \(round)")
            }
            let finished = runs.finished()
            #expect(finished.count <= maximum)
            #expect(
                zip(finished, finished.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound }, "round \(round)")
            let covered = Set(finished.flatMap { Array($0) })
            #expect(Set(pages).isSubset(of: covered), "round \(round)")
        }
    }

    /// Whatever ranges go last (overlapping, past the end, empty), the copy is the file byte for byte, and the
    /// order covers every byte once, the ranges asked last after the rest, from their end back to their start.
    @Test func aCopyInAnyOrderIsTheSameFile() throws {
        let folder = try TemporaryFolder()
        var random = SystemRandomNumberGenerator()
        let size = 40_000 + Int.random(in: 0..<4096, using: &random)
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        let source = folder.file("source")
        try Data(bytes).write(to: URL(fileURLWithPath: source))
        let input = open(source, O_RDONLY)
        defer { close(input) }
        for round in 0..<20 {
            let last = (0..<Int.random(in: 0...6, using: &random)).map { _ -> Range<Int> in
                let start = Int.random(in: 0...(size + 1000), using: &random)
                return start..<start + Int.random(in: 0...9_000, using: &random)
            }
            let lastBytes = Set(last.flatMap { $0.clamped(to: 0..<size) })
            for chunk in [FileCopy.backwardChunk, 997] {
                let order = FileCopy.order(size: size, last: last, chunk: chunk)
                var covered = Array(repeating: 0, count: size)
                for range in order { for offset in range { covered[offset] += 1 } }
                #expect(covered.allSatisfy { $0 == 1 }, "round \(round): \(order)")
                let firstTail = order.firstIndex { lastBytes.contains($0.lowerBound) } ?? order.count
                let tail = order[firstTail...]
                #expect(tail.allSatisfy { lastBytes.contains($0.lowerBound) }, "round \(round): \(order)")
                // What goes last is copied from its end back to its start, a chunk at a time.
                #expect(tail.allSatisfy { $0.count <= chunk }, "round \(round): \(order)")
                #expect(zip(tail, tail.dropFirst()).allSatisfy { $0.lowerBound > $1.lowerBound }, "round \(round)")
            }
            let copy = folder.file("copy-\(round)")
            try FileCopy.copy(from: input, to: copy, last: last)
            #expect(FileManager.default.contents(atPath: copy) == Data(bytes), "round \(round)")
        }
    }
}
