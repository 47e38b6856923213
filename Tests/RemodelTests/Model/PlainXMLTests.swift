import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The plain road (`PlainXML`) against libxml2: a text the plain road takes is one libxml2 reads, to the same
/// tree, positions and values included; anything else goes to libxml2 as before. Held on every XML file of the
/// repository and the corpus, on texts changed at random, and on texts written to sit at each edge of what XML
/// allows.
struct PlainXMLTests {
    /// Every model, version file and mapping file in the repository, and in `../shared/corpus` where it is there.
    static let files: [String] = {
        var roots = ["Benchmarks", "Samples", "Tests/RemodelTests/Fixtures"].map {
            ValidationSupport.packageRoot.appendingPathComponent($0).path
        }
        if ValidationSupport.corpusExists { roots.append(ValidationSupport.corpus.path) }
        var files: [String] = []
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let entry = walker.nextObject() as? String {
                let name = (entry as NSString).lastPathComponent
                if name == "contents" || name == ".xccurrentversion" || name.hasSuffix(".xml") {
                    files.append(root + "/" + entry)
                }
            }
        }
        return files.sorted()
    }()

    @Test func everyFileTheRoadTakesReadsAsLibXML2ReadsIt() throws {
        var taken = 0
        for path in Self.files {
            let bytes = Array(try #require(FileManager.default.contents(atPath: path)))
            if Self.expectSameOnBothRoads(bytes, path) { taken += 1 }
        }
        // What Xcode and Remodel write takes the plain road: the repository's own models, plists and mapping files.
        #expect(taken >= Self.files.count * 9 / 10, "\(taken) of \(Self.files.count)")
        let samples = Self.files.filter { $0.contains("/Samples/") || $0.contains("/Benchmarks/") }
        #expect(!samples.isEmpty)
        for path in samples {
            let bytes = Array(try #require(FileManager.default.contents(atPath: path)))
            #expect(PlainXML.root(of: bytes) != nil, "\(path)")
        }
    }

    @Test(arguments: 0..<60)
    func aTextChangedAtRandomIsTakenOnlyWhenLibXML2ReadsItAlike(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var generator = ModelFileGenerator(seed: seed &+ 5000)
        let bases = [generator.model().1, Self.plist, Self.mapping]
        for base in bases {
            for _ in 0..<8 {
                // One or two changes: most texts stay near the edge of what the plain road takes.
                var bytes = Array(base.utf8)
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    bytes =
                        Int.random(in: 0..<3, using: &random) > 0
                        ? Self.mutate(bytes, &random) : ModelTagTreeTests.mutate(bytes, &random)
                }
                Self.expectSameOnBothRoads(bytes, "seed \(seed):\n\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    /// Texts at each edge of what XML allows: those the plain road takes, and those it leaves to libxml2 (which
    /// refuses most of them).
    @Test func textsAtTheEdgesOfXMLTakeTheRightRoad() {
        let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        let taken = [
            "<a/>", declaration + "<a b=\"1\" c='2'>t&amp;&lt;&gt;&quot;&apos;&#233;&#x1F98A;</a>",
            "<?xml version='1.0'?><a/>", "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<a/>",
            "\u{FEFF}" + declaration + "<a/>", Self.plist, Self.mapping, "<a>é 名前 🦊 \u{7F}\u{85}</a>",
            "<a><!-- a comment - with a hyphen --><b/>text<c></c ></a>\n<!-- after -->\n",
            "<a b = \"x > y\" />", "<a\tb=\"1\"\n c=\"2\"/>", "<!DOCTYPE a><a/>", "<!DOCTYPE a SYSTEM \"a.dtd\"><a/>",
            "<a>]] ]></a>", "<a>\t\n</a>", "<a b=\"\u{FFFD}\"/>",
        ]
        let left = [
            "", " ", "text", "<a>", "<a></b>", "<a/><b/>", "<a/>text", "<a b=\"1\" b=\"2\"/>", "<a b=\"1\"c=\"2\"/>",
            "<a b=\"<\"/>", "<a b=\"&x;\"/>", "<a b=\"&amp\"/>", "<a>&#0;</a>", "<a>&#xD800;</a>", "<a>&#x110000;</a>",
            "<a>&#xFFFE;</a>", "<a>]]></a>", "<a><!-- x -- y --></a>", "<a><!-- x ---></a>", "<a><?pi x?></a>",
            "<a><![CDATA[x]]></a>", "<x:a xmlns:x=\"u\"/>", "<a xmlns=\"u\"/>", "<a x:b=\"1\"/>", "<é/>", "<a\u{1}/>",
            "<a>\u{1}</a>", "<a>\r\n</a>", "<a b=\"\t\"/>", " <?xml version=\"1.0\"?><a/>",
            "<?xml version=\"1.1\"?><a/>", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>",
            "<?xml version=\"1.0\"encoding=\"UTF-8\"?><a/>", "<?xml version=\"1.0\" standalone=\"maybe\"?><a/>",
            "<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>", "<!DOCTYPE a><!DOCTYPE a><a/>", "<a/><!DOCTYPE a>",
            "<!DOCTYPE a SYSTEM \"a.dtd#f\"><a/>", "<a>" + String(repeating: "<b>", count: 200) + "</a>",
        ]
        for text in taken {
            #expect(PlainXML.root(of: Array(text.utf8)) != nil, "\(text)")
            Self.expectSameOnBothRoads(Array(text.utf8), text)
        }
        for text in left {
            #expect(PlainXML.root(of: Array(text.utf8)) == nil, "\(text)")
            Self.expectSameOnBothRoads(Array(text.utf8), text)
        }
        // Bytes that are not UTF-8, or name a character XML does not allow.
        for bytes: [UInt8] in [
            [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xFF],
            [0xC3],
        ] {
            let text = Array("<a>".utf8) + bytes + Array("</a>".utf8)
            #expect(PlainXML.root(of: text) == nil, "\(bytes)")
            Self.expectSameOnBothRoads(text, "\(bytes)")
        }
    }

    /// Reads `bytes` on both roads and records an issue when the plain road takes a text libxml2 refuses or reads
    /// otherwise, or when its check and its reading disagree. Returns whether the plain road took it.
    @discardableResult
    static func expectSameOnBothRoads(_ bytes: [UInt8], _ context: @autoclosure () -> String) -> Bool {
        let plain = PlainXML.root(of: bytes)
        #expect(bytes.withUnsafeBufferPointer(PlainXML.isWellFormed) == (plain != nil), "\(context())")
        guard plain != nil else { return false }
        let file = "Plain.xml"
        do {
            let libxml2 = try XMLDocumentReader.parseWithLibXML2(bytes, file: file)
            let read = try XMLDocumentReader.parse(bytes, file: file)
            #expect(describe(read) == describe(libxml2), "\(context())")
        } catch {
            Issue.record("the plain road took a text libxml2 refuses (\(error.message)): \(context())")
        }
        return true
    }

    /// Everything a caller can see of a tree, one element a line.
    static func describe(_ node: XMLNode, depth: Int = 0) -> String {
        let attributes = node.attributes.map { "\($0.name)=\($0.value)|\($0.rawValue)@\($0.valueLocation)" }
        let written = node.writtenText.map { "\($0.value)|\($0.rawValue)@\($0.valueLocation)" } ?? "-"
        var text =
            "\(depth) <\(node.name)> @\(node.location) +\(node.offset) \(attributes) text=\(node.text.debugDescription) written=\(written)\n"
        for child in node.children { text += describe(child, depth: depth + 1) }
        return text
    }

    /// One random change at the level of XML's own syntax: a name written twice, a quote or a bracket dropped, a
    /// reference cut short, a comment with `--`, a tag closed by another name, a byte XML does not allow.
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        guard !bytes.isEmpty else { return Array("<a/>".utf8) }
        let position = Int.random(in: 0..<bytes.count, using: &random)
        let pieces = [
            "<", ">", "/", "&", "&amp;", "&#65;", "&#x;", "&lt", ";", "\"", "'", "=", " ", "--", "<!-- c -->", "]]>",
            "]]", "\t", "\u{0}", "\u{7F}", "é", "\u{FFFD}", ":", "?>", "<?", "<!", "a", "0", ".", "-",
        ]
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            let piece = pieces[Int.random(in: 0..<pieces.count, using: &random)]
            bytes.insert(contentsOf: Array(piece.utf8), at: position)
        case 1:
            bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...4, using: &random)))
        case 2:
            // An attribute written again in its tag.
            if let space = bytes[position...].firstIndex(of: UInt8(ascii: " ")),
                let equals = bytes[space...].firstIndex(of: UInt8(ascii: "=")),
                let open = bytes[equals...].firstIndex(of: UInt8(ascii: "\"")),
                let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "\""))
            {
                bytes.insert(contentsOf: Array(bytes[space...close]), at: close + 1)
            }
        case 3:
            // An end tag's name changed by one letter.
            if let end = bytes[position...].firstIndex(of: UInt8(ascii: "/")), end + 1 < bytes.count,
                bytes[end - 1] == UInt8(ascii: "<")
            {
                bytes[end + 1] = bytes[end + 1] == UInt8(ascii: "z") ? UInt8(ascii: "y") : UInt8(ascii: "z")
            }
        case 4:
            bytes.insert(UInt8.random(in: 0x80...0xFF, using: &random), at: position)
        default:
            // A text from a tag to another place: elements moved, cut or repeated.
            let other = Int.random(in: 0..<bytes.count, using: &random)
            let range = min(position, other)..<max(position, other)
            bytes.insert(contentsOf: Array(bytes[range]), at: Int.random(in: 0...bytes.count, using: &random))
        }
        return bytes
    }

    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>Model 2.xcdatamodel</string>
        </dict>
        </plist>

        """

    static let mapping = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- A person's full name from two attributes. -->
        <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
            <entity source="Person" destination="Person">
                <attribute name="fullName" value="$source.firstName + ' ' + $source.lastName"/>
                <attribute name="note" value="&quot;a &amp; b&quot; &lt; $source.x"/>
            </entity>
        </mapping>

        """
}
