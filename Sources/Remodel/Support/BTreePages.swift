#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pages of some b-trees of an SQLite file (a table and its indexes), found by reading their interior
/// pages only: an interior page names its children, and every leaf of an SQLite b-tree is at the same depth, so
/// the children of the last interior level are leaves, known without being read. That reads about one page in
/// a few hundred of a table (a 4 KiB interior page of a table names some 400 children).
///
/// Overflow pages (values too large for a leaf) are named only in the leaves, and so are left out. The answer
/// orders work (which pages a copy writes last, see ``FileCopy``), never what is copied: a file it cannot make
/// sense of gives `nil`, and a wrong answer can only change the order.
///
/// The leaves are kept as runs of neighbouring pages, at most ``maximumRuns`` of them: past that, runs are joined
/// across the smallest gaps (pages of other trees between them join the answer), so that the memory the answer
/// takes does not grow with the table (a set of every leaf of a 13 GB store's table took tens of MiB).
package enum BTreePages {
    /// The most runs of pages an answer holds (16 bytes each).
    static let maximumRuns = 1 << 14

    /// The pages of the b-trees whose root pages are `roots`, in the file open on `descriptor` (pages of
    /// `pageSize` bytes; `pageCount` of them), as ascending runs of page numbers (1-based), at most
    /// `maximumRuns` of them; `nil` when a page is not what a b-tree's page is (the file changed, or is not an
    /// SQLite database).
    package static func pages(
        roots: [Int], descriptor: Int32, pageSize: Int, pageCount: Int, maximumRuns: Int = maximumRuns
    ) -> [ClosedRange<Int>]? {
        // Interior pages, each read once: a page met twice is a cycle, no b-tree.
        var interior = Set<Int>()
        var runs = PageRuns(maximum: maximumRuns)
        var buffer = [UInt8](repeating: 0, count: pageSize)
        // Reads a page, and names its children when it is an interior page: nil when it is no b-tree page.
        func children(of page: Int) -> [Int]?? {
            guard page >= 1, page <= pageCount else { return nil }
            let read = buffer.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress, pageSize, off_t((page - 1) * pageSize))
            }
            guard read == pageSize else { return nil }
            let header = page == 1 ? 100 : 0
            switch buffer[header] {
            case 10, 13: return .some(nil)  // a leaf
            case 2, 5: break  // an interior page of an index, of a table
            default: return nil
            }
            let cells = Int(buffer[header + 3]) << 8 | Int(buffer[header + 4])
            guard header + 12 + 2 * cells <= pageSize else { return nil }
            var list: [Int] = []
            list.reserveCapacity(cells + 1)
            for cell in 0..<cells {
                let pointer = header + 12 + 2 * cell
                let offset = Int(buffer[pointer]) << 8 | Int(buffer[pointer + 1])
                guard offset + 4 <= pageSize else { return nil }
                list.append(integer(buffer, at: offset))
            }
            list.append(integer(buffer, at: header + 8))
            return .some(list)
        }
        for root in roots {
            var level = [root]
            while !level.isEmpty {
                guard level.allSatisfy({ interior.insert($0).inserted }) else { return nil }
                var next: [Int] = []
                var leaves = 0
                // Every leaf is at the same depth: when the level's first grandchild is a leaf, all its children
                // are, and none needs reading (nor keeping: they go to the runs as they are named).
                var childrenAreLeaves: Bool?
                for page in level {
                    runs.add(page)
                    switch children(of: page) {
                    case .none: return nil
                    case .some(.none): leaves += 1
                    case .some(.some(let list)):
                        if childrenAreLeaves == nil {
                            switch children(of: list[0]) {
                            case .none: return nil
                            case .some(.none): childrenAreLeaves = true
                            case .some(.some): childrenAreLeaves = false
                            }
                        }
                        if childrenAreLeaves == true {
                            guard list.allSatisfy({ $0 >= 1 && $0 <= pageCount }) else { return nil }
                            for leaf in list { runs.add(leaf) }
                        } else {
                            next += list
                        }
                    }
                }
                guard leaves == 0 || leaves == level.count else { return nil }
                level = next
            }
        }
        return runs.finished()
    }

    /// The big-endian 32-bit page number at `offset`.
    private static func integer(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Runs of pages as byte ranges of the file.
    package static func byteRanges(of runs: [ClosedRange<Int>], pageSize: Int) -> [Range<Int>] {
        runs.map { ($0.lowerBound - 1) * pageSize..<$0.upperBound * pageSize }
    }
}

/// Page numbers gathered as runs of neighbours, at most `maximum` runs: past that, the runs are sorted and
/// joined across the smallest gaps until half remain.
struct PageRuns {
    let maximum: Int
    private(set) var runs: [ClosedRange<Int>] = []

    init(maximum: Int) {
        self.maximum = max(maximum, 2)
    }

    mutating func add(_ page: Int) {
        if let last = runs.last, last.upperBound + 1 == page {
            runs[runs.count - 1] = last.lowerBound...page
            return
        }
        runs.append(page...page)
        if runs.count > maximum { join(downTo: maximum / 2) }
    }

    /// The runs in ascending order, overlapping and neighbouring ones joined.
    mutating func finished() -> [ClosedRange<Int>] {
        join(downTo: maximum)
        return runs
    }

    /// Sorts the runs, joins those that touch, then those across the smallest gaps until at most `count` remain.
    private mutating func join(downTo count: Int) {
        runs.sort { $0.lowerBound < $1.lowerBound }
        var gap = 0
        repeat {
            var joined: [ClosedRange<Int>] = []
            joined.reserveCapacity(runs.count)
            for run in runs {
                if let last = joined.last, run.lowerBound <= last.upperBound + 1 + gap {
                    joined[joined.count - 1] = last.lowerBound...max(last.upperBound, run.upperBound)
                } else {
                    joined.append(run)
                }
            }
            runs = joined
            gap = gap == 0 ? 1 : gap * 2
        } while runs.count > count
    }
}
