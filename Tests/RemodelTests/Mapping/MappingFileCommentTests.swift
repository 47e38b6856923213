import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// What a written mapping file says in its comments (provenance, problems, names from the user's model and
/// expressions) must leave the file readable XML, whatever the text holds.
struct MappingFileCommentTests {
    /// Random texts of hyphens, combining marks and other characters: each comment has no `--` byte pair and no
    /// final hyphen, reads back through libxml2, and is Foundation's old answer wherever no combining mark follows a
    /// hyphen. (Foundation's search, and Swift's, take `-` followed by U+0301 for another character, so the old
    /// loop left `--\\u{301}` in the comment, and the file did not read.)
    @Test func everyCommentReadsBack() throws {
        var random = SplitMix64(seed: 29)
        let pieces = ["-", "-", "\u{301}", "a", ">", " ", "é", "😀", "<!--"]
        for _ in 0..<3_000 {
            let text = (0..<Int(random.next() % 9)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            let comment = MappingFileWriter.comment(text)
            let bytes = Array(comment.utf8)
            #expect(
                !zip(bytes, bytes.dropFirst()).contains { $0 == 0x2D && $1 == 0x2D }, "\(Array(text.unicodeScalars))")
            #expect(bytes.last != 0x2D, "\(Array(text.unicodeScalars))")
            let document = "<?xml version=\"1.0\"?>\n<mapping><!-- \(comment) --></mapping>\n"
            #expect(throws: Never.self, "\(Array(text.unicodeScalars))") {
                _ = try XMLDocumentReader.parseWithLibXML2(Array(document.utf8), file: "map.xml")
            }
            if !text.unicodeScalars.contains("\u{301}") {
                var old = text
                while old.contains("--") { old = old.replacingOccurrences(of: "--", with: "- -") }
                #expect(comment == (old.hasSuffix("-") ? old + " " : old), "\(Array(text.unicodeScalars))")
            }
        }
    }
}
