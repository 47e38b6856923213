import Foundation
import Remodel

/// The benchmark's model bundle and mapping file (`Benchmarks/` in the repository), and how a
/// store of a given size is split between its entities.
enum BenchModel {
    static let name = "BenchLibrary"
    static let v1 = "BenchLibrary"
    static let v2 = "BenchLibrary 2"
    static let v4 = "BenchLibrary 4"

    /// The repository root, found from this file's path at build time (by its text: `URL` would map Foundation's
    /// code into every child, and the memory figures are the library's).
    static let repository: String = {
        var path = Substring(#filePath)
        for _ in 0..<3 { path = path[..<(path.lastIndex(of: "/") ?? path.startIndex)] }
        return String(path)
    }()
    static var bundlePath: String { SourceModel.library.bundlePath }
    static var mappingsPath: String { repository + "/Benchmarks/Mappings" }
    static var corpusBundle: String { repository + "/../shared/corpus/mastodon__mastodon-ios/CoreData.xcdatamodeld" }

    /// About the bytes a generated store takes per object, its indexes included (92 MiB for 1,000,000 objects,
    /// 1,077 MiB for 11,126,858: the indexes grow a little faster than the tables).
    static let bytesPerObject = 100.0

    /// The objects of a generated store of about `bytes` bytes.
    static func objects(forBytes bytes: Double) -> Int {
        max(SourceModel.minimumObjects, Int(bytes / bytesPerObject))
    }

    static func bundle() throws -> ModelBundle {
        try SourceModel.library.bundle()
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

/// The models the benchmark generates source stores of (`Benchmarks/Models`), one store per model and size.
enum SourceModel: String, CaseIterable {
    /// Four versions; `migrate`, `migrate3`, `policy` and their limits.
    case library = "BenchLibrary"
    /// BenchLibrary's first version, then the same with one optional attribute added to Person; `addAttribute`.
    case addAttribute = "BenchAddAttribute"
    /// Ten entities; the second version computes a new attribute of one of them; `oneOfTen`.
    case ten = "BenchTen"

    /// The smallest `--objects` their generators take.
    static let minimumObjects = 1_000

    var bundlePath: String { BenchModel.repository + "/Benchmarks/Models/\(rawValue).xcdatamodeld" }

    func bundle() throws -> ModelBundle {
        try ModelBundle(contentsOf: bundlePath)
    }

    /// The version source stores are generated at.
    var firstVersion: String { rawValue }
    /// The version a one-step scenario migrates to.
    var secondVersion: String { rawValue + " 2" }

    /// Generates a store of `objects` objects at ``firstVersion``.
    func generate(at path: String, objects: Int) throws {
        switch self {
        case .library, .addAttribute:
            try Generator.generate(at: path, objects: objects, bundle: try bundle(), version: firstVersion)
        case .ten: try TenGenerator.generate(at: path, objects: objects)
        }
    }
}
