import Foundation
import Testing

/// The README shows the map and docs/README.md is it: every document under docs/ is reachable from the index, and
/// every relative link of the README, the index and the API page leads to a file that is there.
struct DocumentationIndexTests {
    private static let root = MigrationFixtures.packageRoot

    /// The relative targets of a Markdown file's links (`[text](target)`), without their `#fragment`.
    static func relativeLinks(in path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expression = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let range = Range(match.range(at: 1), in: text) else { return nil }
            let target = String(text[range].split(separator: "#", omittingEmptySubsequences: false)[0])
            return target.isEmpty || target.contains("://") ? nil : target
        }
    }

    @Test func everyDocumentIsLinkedFromTheIndex() throws {
        let documents = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/docs")
            .filter { $0.hasSuffix(".md") && $0 != "README.md" }
        #expect(documents.count >= 15, "\(documents)")
        let linked = Set(try Self.relativeLinks(in: Self.root + "/docs/README.md"))
        for document in documents.sorted() {
            #expect(linked.contains(document), "docs/README.md does not link \(document)")
        }
    }

    @Test(arguments: ["README.md", "docs/README.md", "docs/API.md"])
    func everyLinkLeadsToAFile(_ file: String) throws {
        let folder = URL(fileURLWithPath: Self.root + "/" + file).deletingLastPathComponent()
        let links = try Self.relativeLinks(in: Self.root + "/" + file)
        #expect(!links.isEmpty)
        for link in links {
            let target = folder.appendingPathComponent(link).standardizedFileURL.path
            #expect(FileManager.default.fileExists(atPath: target), "\(file) links \(link), which is not there")
        }
    }

    @Test func theReadmeIsShortAndShowsTheMap() throws {
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 300, "README.md has \(lines) lines")
        let links = try Self.relativeLinks(in: Self.root + "/README.md")
        for page in ["docs/README.md", "docs/API.md", "docs/CLI.md", "docs/TYPED-ACCESS.md"] {
            #expect(links.contains(page), "README.md does not link \(page)")
        }
        #expect(readme.contains("swift run remodel demo") && readme.contains("swift test"))
    }
}
