import Foundation
import Testing

/// The folders of `Sources/Remodel` use only the folders listed before them in docs/ARCHITECTURE.md.
struct LayerOrderTests {
    static let sources = MigrationFixtures.packageRoot + "/Sources/Remodel"
    static let architecture = MigrationFixtures.packageRoot + "/docs/ARCHITECTURE.md"

    /// The folders in the order docs/ARCHITECTURE.md's `layers` block lists them, bottom first.
    static func layers() throws -> [String] {
        let text = try String(contentsOfFile: architecture, encoding: .utf8)
        guard let start = text.range(of: "```layers\n"),
            let end = text.range(of: "\n```", range: start.upperBound..<text.endIndex)
        else {
            Issue.record("docs/ARCHITECTURE.md has no ```layers block")
            return []
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap {
            $0.split(separator: " ", maxSplits: 1).first.map(String.init)
        }
    }

    /// Every Swift file of the library, by its folder relative to `Sources/Remodel`.
    static func files() throws -> [(folder: String, path: String)] {
        let enumerator = FileManager.default.enumerator(atPath: sources)
        var files: [(folder: String, path: String)] = []
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let folder = (relative as NSString).deletingLastPathComponent
            files.append((folder, sources + "/" + relative))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Every file's names, read once for the suite.
    static let parsed = Result { () throws -> [String: SwiftSourceNames] in
        var names: [String: SwiftSourceNames] = [:]
        for file in try files() {
            names[file.path] = SwiftSourceNames(source: try String(contentsOfFile: file.path, encoding: .utf8))
        }
        return names
    }

    /// Every upward use, as a sentence: a name declared only in folders listed after the file's own.
    static func upwardUses(layers: [String]) throws -> [String] {
        let rank = Dictionary(uniqueKeysWithValues: layers.enumerated().map { ($1, $0) })
        let files = try files()
        let names = try parsed.get()
        var typeFolders: [String: Set<String>] = [:]
        var memberFolders: [String: Set<String>] = [:]
        var nameFolders: [String: Set<String>] = [:]
        var extensionMembers: [(folder: String, type: String, name: String)] = []
        var functions: Set<String> = []
        for file in files {
            guard let found = names[file.path] else { continue }
            for type in found.declaredTypes { typeFolders[type, default: []].insert(file.folder) }
            for member in found.declaredStaticMembers { memberFolders[member, default: []].insert(file.folder) }
            for name in found.declaredNames { nameFolders[name, default: []].insert(file.folder) }
            for member in found.extensionMembers {
                let parts = member.split(separator: ".", maxSplits: 1).map(String.init)
                extensionMembers.append((file.folder, parts[0], parts[1]))
            }
            functions.formUnion(found.topLevelFunctions)
        }
        // Names reached without their type: a member a folder adds to another folder's type in an extension, and
        // a top-level function. (A name the standard library also has, on a type the library does not declare,
        // is not one: only extensions of the library's own types count.)
        let reachedByName = functions.union(
            extensionMembers.filter { member in
                guard let home = typeFolders[member.type] else { return false }
                return !home.contains(member.folder)
            }.map(\.name))
        var problems: [String] = []
        for file in files {
            guard let own = rank[file.folder], let found = names[file.path] else { continue }
            // An extension member or a function is reached by its name alone: an arrow up only when every
            // declaration of that name in the library is above.
            let uses =
                found.usedTypes.map { ($0, typeFolders[$0] ?? []) }
                + found.usedMembers.map { ($0, memberFolders[$0] ?? []) }
                + found.usedMemberNames.intersection(reachedByName).subtracting(Self.standardLibraryNames).map {
                    ($0, nameFolders[$0] ?? [])
                }
            for (name, folders) in uses {
                // A type declared in several folders (a nested name reused) is only an arrow up when every
                // declaration is above.
                let ranks = folders.compactMap { rank[$0] }
                guard let lowest = ranks.min(), lowest > own, !folders.contains(file.folder) else { continue }
                let above = folders.filter { (rank[$0] ?? 0) > own }.sorted().joined(separator: ", ")
                let relative = String(file.path.dropFirst(sources.count + 1))
                problems.append("\(relative) uses \(name) from \(above), listed above \(file.folder)")
            }
        }
        return problems.sorted()
    }

    /// Names of the standard library that a folder also gives one of the library's types: `.failure(…)` is most
    /// often `Result`'s.
    static let standardLibraryNames: Set<String> = ["failure", "success"]

    @Test func everyArrowBetweenFoldersPointsDown() throws {
        let layers = try Self.layers()
        #expect(layers.count > 10)
        let problems = try Self.upwardUses(layers: layers)
        #expect(problems == [], "\(problems.joined(separator: "\n"))")
    }

    @Test func everyFolderIsListedOnce() throws {
        let layers = try Self.layers()
        let folders = Set(try Self.files().map(\.folder))
        #expect(folders.subtracting(layers).sorted() == [], "add these folders to docs/ARCHITECTURE.md")
        #expect(Set(layers).subtracting(folders).sorted() == [], "docs/ARCHITECTURE.md lists folders that are gone")
        #expect(layers.count == Set(layers).count, "a folder is listed twice")
    }

    /// The check sees an upward arrow: with the order of two folders swapped, it names the uses.
    @Test func swappingTwoLayersIsCaught() throws {
        var layers = try Self.layers()
        let model = try #require(layers.firstIndex(of: "Model"))
        let diagnostics = try #require(layers.firstIndex(of: "Diagnostics"))
        layers.swapAt(model, diagnostics)
        let problems = try Self.upwardUses(layers: layers)
        #expect(problems.contains { $0.hasPrefix("Model/ModelBundle.swift uses RemodelError from Diagnostics") })
    }

    @Test func scannerLeavesOutCommentsAndStringTextButKeepsInterpolations() {
        let source = """
            /// A Store in a comment.
            struct Shown { let text = "a Hidden type \\(Visible.name) and \\"Quoted\\"" }
            let raw = #"Raw "Hidden" text"#
            extension Shown {
                static func make() {}
            }
            """
        let names = SwiftSourceNames(source: source)
        #expect(names.declaredTypes == ["Shown"])
        #expect(names.declaredStaticMembers == ["Shown.make"])
        #expect(names.usedTypes == ["Shown", "Visible"])
        #expect(names.usedMembers == ["Visible.name"])
    }

    /// What the names of types cannot show: a member one folder adds to another's type in an extension, a
    /// top-level function, a static member called from inside its type.
    @Test func scannerSeesExtensionMembersFunctionsAndBareCalls() {
        let source = """
            extension SQLiteValue {
                public var integerValue: Int64? { nil }
                static func make(_ check: () -> Bool) -> Int { check() ? counted(1) : 0 }
            }
            func counted(_ number: Int) -> Int { number }
            let total = value.integerValue ?? 0
            """
        let names = SwiftSourceNames(source: source)
        #expect(names.extensionMembers == ["SQLiteValue.integerValue", "SQLiteValue.make"])
        #expect(names.topLevelFunctions == ["counted"])
        #expect(names.usedMemberNames.isSuperset(of: ["integerValue", "counted", "check"]))
        #expect(names.declaredNames.isSuperset(of: ["integerValue", "make", "check", "counted", "number", "total"]))
    }
}
