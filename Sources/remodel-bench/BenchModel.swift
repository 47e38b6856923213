import Foundation
import Remodel

/// The benchmark's model bundle and mapping file (`Benchmarks/` in the repository), and how a
/// store of a given size is split between its entities.
enum BenchModel {
    static let name = "BenchLibrary"
    static let v1 = "BenchLibrary"
    static let v2 = "BenchLibrary 2"
    static let v4 = "BenchLibrary 4"

    /// The repository root, found from this file's path at build time.
    static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static var bundlePath: String { repository + "/Benchmarks/Models/BenchLibrary.xcdatamodeld" }
    static var mappingsPath: String { repository + "/Benchmarks/Mappings" }
    static var corpusBundle: String { repository + "/../shared/corpus/mastodon__mastodon-ios/CoreData.xcdatamodeld" }

    static func bundle() throws -> ModelBundle {
        try ModelBundle(contentsOf: bundlePath)
    }

    /// Object counts per entity for `objects` objects in all: half people, 1% tags, the rest books.
    struct Counts {
        var people: Int
        var books: Int
        var tags: Int
        /// Book–tag links: two per book.
        var links: Int { books * 2 }

        init(objects: Int) {
            people = objects / 2
            tags = max(2, objects / 100 / 2 * 2)
            books = objects - people - tags
        }
    }
}
