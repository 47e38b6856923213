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
enum BTreePages {
    /// The pages of the b-trees whose root pages are `roots`, in the file open on `descriptor` (pages of
    /// `pageSize` bytes; `pageCount` of them), ascending; `nil` when a page is not what a b-tree's page is
    /// (the file changed, or is not an SQLite database).
    static func pages(roots: [Int], descriptor: Int32, pageSize: Int, pageCount: Int) -> [Int]? {
        var found = Set<Int>()
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
                guard level.allSatisfy({ found.insert($0).inserted }) else { return nil }
                var next: [Int] = []
                var leaves = 0
                for page in level {
                    switch children(of: page) {
                    case .none: return nil
                    case .some(.none): leaves += 1
                    case .some(.some(let list)): next += list
                    }
                }
                guard leaves == 0 || leaves == level.count else { return nil }
                guard let first = next.first else { break }
                // Every leaf is at the same depth: when one child is a leaf, all are, and none needs reading.
                switch children(of: first) {
                case .none: return nil
                case .some(.none):
                    guard next.allSatisfy({ $0 >= 1 && $0 <= pageCount && found.insert($0).inserted }) else {
                        return nil
                    }
                    level = []
                case .some(.some):
                    level = next
                }
            }
        }
        return found.sorted()
    }

    /// The big-endian 32-bit page number at `offset`.
    private static func integer(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// `pages` as byte ranges of the file, neighbours joined.
    static func byteRanges(of pages: [Int], pageSize: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for page in pages {
            let start = (page - 1) * pageSize
            if let last = ranges.last, last.upperBound == start {
                ranges[ranges.count - 1] = last.lowerBound..<start + pageSize
            } else {
                ranges.append(start..<start + pageSize)
            }
        }
        return ranges
    }
}
