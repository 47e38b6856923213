import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The tag reader (`ModelTagTree`) against two yardsticks: the model a file was written from, and libxml2's
/// tree (`ModelFileReader.readThroughTree`), which every file took before. Generated models of every kind of
/// element read back as written; files changed at random (hostile ones among them) give the same version, the
/// same entity texts and the same diagnostics, at the same file, line and column, on both roads.
struct ModelTagTreeTests {
    static let file = "Generated.xcdatamodel/contents"

    @Test(arguments: 0..<80)
    func aGeneratedModelReadsBackAsItWasWritten(seed: UInt64) throws {
        var generator = ModelFileGenerator(seed: seed)
        let (expected, xml) = generator.model()
        let bytes = Array(xml.utf8)
        // The text is one the tag reader takes: the property is about it, not about the other road.
        #expect(try ModelTagTree.read(bytes, file: Self.file, pool: TagRecordPool()) != nil)
        let (version, diagnostics) = ModelFileReader.read(bytes: bytes, path: Self.file, versionName: "Generated")
        #expect(diagnostics.isEmpty)
        let read = try #require(version)
        #expect(read.withoutSources == expected, "seed \(seed):\n\(xml)")
        Self.expectSameOnBothRoads(bytes, "seed \(seed)")
    }

    @Test(arguments: 0..<40)
    func aFileChangedAtRandomReadsTheSameOnBothRoads(seed: UInt64) {
        var generator = ModelFileGenerator(seed: seed &+ 1000)
        let (_, xml) = generator.model()
        var random = SplitMix64(seed: seed)
        for _ in 0..<12 {
            let changed = Self.mutate(Array(xml.utf8), &random)
            Self.expectSameOnBothRoads(changed, "seed \(seed):\n\(String(decoding: changed, as: UTF8.self))")
        }
    }

    /// Texts the tag reader leaves to libxml2's tree, and ones it takes, each read the same on both roads.
    @Test func textsOutsideWhatXcodeWritesTakeTheTreeAndReadTheSame() throws {
        let body = """
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Person" representedClassName="Person">
                    <attribute name="name" attributeType="String" defaultValueString="a &amp; b &#233;"/>
                </entity>
            </model>
            """
        let plain = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n" + body
        let taken = [
            plain, body, "\u{FEFF}" + plain, plain.replacingOccurrences(of: "UTF-8", with: "utf-8"),
            plain.replacingOccurrences(of: "<entity", with: "<!-- a <!DOCTYPE in a comment -->\n    <entity"),
            plain.replacingOccurrences(of: "\n", with: "\r\n"),
            // Tags over several lines (attributes on later lines, after non-ASCII text, with tabs and Windows
            // line ends between them): positions on a later line of a tag are columns from that line's start.
            plain.replacingOccurrences(of: " attributeType=", with: "\n\t\t attributeType=")
                .replacingOccurrences(of: " defaultValueString=", with: "\r\n défaut=\"é\"\n  defaultValueString="),
        ]
        let left = [
            plain.replacingOccurrences(of: "UTF-8", with: "ISO-8859-1"),
            plain.replacingOccurrences(of: "<model", with: "<!DOCTYPE model>\n<model"),
            plain.replacingOccurrences(of: "<entity", with: "<x:tag xmlns:x=\"urn:x\"/><entity"),
            plain.replacingOccurrences(of: "<model", with: "<model xmlns=\"urn:x\""),
            plain.replacingOccurrences(of: "a &amp; b", with: "a\tb"),
            plain.replacingOccurrences(of: "name=\"name\"", with: "name=\"na\nme\""),
            plain.replacingOccurrences(of: "</entity>", with: "<![CDATA[ text ]]></entity>"),
        ]
        for text in taken {
            #expect(
                try ModelTagTree.read(Array(text.utf8), file: Self.file, pool: TagRecordPool()) != nil, "\(text)")
            Self.expectSameOnBothRoads(Array(text.utf8), text)
        }
        for text in left {
            #expect(
                try ModelTagTree.read(Array(text.utf8), file: Self.file, pool: TagRecordPool()) == nil, "\(text)")
            Self.expectSameOnBothRoads(Array(text.utf8), text)
        }
        let (version, _) = ModelFileReader.read(bytes: Array(plain.utf8), path: Self.file, versionName: "V")
        #expect(version?.entity(named: "Person")?.attributes.first?.defaultValue == "a & b é")
    }

    /// Versions read with one pool share the records of the tags they write alike, and each keeps its own
    /// positions.
    @Test func versionsReadWithOnePoolEqualThemReadAlone() throws {
        var generator = ModelFileGenerator(seed: 7)
        let (_, xml) = generator.model()
        let moved = xml.replacingOccurrences(of: "<model", with: "\n\n<model")
            .replacingOccurrences(of: "    <entity", with: "      <entity")
        let pool = TagRecordPool()
        for text in [xml, moved, xml] {
            let shared = ModelFileReader.read(bytes: Array(text.utf8), path: Self.file, versionName: "V", pool: pool)
            let alone = ModelFileReader.readThroughTree(bytes: Array(text.utf8), path: Self.file, versionName: "V")
            #expect(shared.0 == alone.0)
            #expect(shared.0?.entityTexts == alone.0?.entityTexts)
        }
    }

    /// Reads `bytes` on both roads and records an issue when they differ in anything a caller can see.
    static func expectSameOnBothRoads(_ bytes: [UInt8], _ context: @autoclosure () -> String) {
        let tags = ModelFileReader.read(bytes: bytes, path: file, versionName: "V")
        let tree = ModelFileReader.readThroughTree(bytes: bytes, path: file, versionName: "V")
        #expect(tags.1 == tree.1, "\(context())")
        #expect(tags.0 == tree.0, "\(context())")
        #expect(tags.0?.entityTexts == tree.0?.entityTexts, "\(context())")
    }

    /// One random change of the kinds a hostile or damaged file holds: a byte flipped, dropped or repeated, a
    /// cut, a document type, entity declarations and references, CDATA, namespaces, line breaks and tabs in
    /// values, another encoding, a byte order mark, Windows line ends, a second root.
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        let position = Int.random(in: 0..<max(1, bytes.count), using: &random)
        func insert(_ text: String, at index: Int) { bytes.insert(contentsOf: Array(text.utf8), at: index) }
        // After the first `<` of an element at or after `position`, or at the end.
        let tagStart = bytes[position...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
        let quote = bytes[position...].firstIndex(of: UInt8(ascii: "\"")).map { $0 + 1 } ?? bytes.count
        switch Int.random(in: 0..<21, using: &random) {
        case 0: if !bytes.isEmpty { bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random)) }
        case 1: if !bytes.isEmpty { bytes.remove(at: position) }
        case 2: if !bytes.isEmpty { bytes.insert(bytes[position], at: position) }
        case 3: bytes = Array(bytes[..<position])
        case 4: insert("<!DOCTYPE model [<!ENTITY e \"x\">]>\n", at: tagStart)
        case 5: insert("<!DOCTYPE model>\n", at: tagStart)
        case 6: insert("&amp;&lt;&#65;&#x1F98A;", at: quote)
        case 7: insert("&e;", at: quote)
        case 8: insert("\n\t", at: quote)
        case 9: insert("<![CDATA[ <x> ]]>", at: tagStart)
        case 10: insert("<p:x xmlns:p=\"urn:p\" p:a=\"1\"/>", at: tagStart)
        case 11: insert("<!-- <x> -- -->", at: tagStart)
        case 12: insert("<?pi data?>", at: tagStart)
        case 13: bytes = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        case 14:
            bytes = Array(
                String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "UTF-8", with: "ISO-8859-1").utf8)
        case 15: bytes = [0xEF, 0xBB, 0xBF] + bytes
        case 16: insert("<model/>", at: bytes.count)
        case 17: insert(" é=\"ü\" ", at: min(bytes.count, tagStart + 2))
        case 18: insert("&#0;&#xD800;&bogus", at: quote)
        case 19: insert("\u{1F98A}\u{301}", at: quote)
        default:
            // A line break between two attributes of a tag: after the space before the next attribute.
            if let space = bytes[position...].firstIndex(of: UInt8(ascii: " ")) {
                insert("\r\n\t é=\"ü\"\n ", at: space)
            }
        }
        return bytes
    }
}

extension ModelVersion {
    /// The same version with every source record synthetic and no path: what a model made in code has.
    fileprivate var withoutSources: ModelVersion {
        func attribute(_ attribute: Attribute) -> Attribute {
            var copy = attribute
            copy.source = .synthetic
            return copy
        }
        let entities = entities.map { entity in
            var copy = entity
            copy.source = .synthetic
            copy.attributes = entity.attributes.map(attribute)
            copy.relationships = entity.relationships.map { relationship in
                var copy = relationship
                copy.source = .synthetic
                return copy
            }
            copy.fetchedProperties = entity.fetchedProperties.map { FetchedProperty(name: $0.name, source: .synthetic) }
            copy.uniquenessConstraints = entity.uniquenessConstraints.map {
                UniquenessConstraint(properties: $0.properties)
            }
            copy.fetchIndexes = entity.fetchIndexes.map { index in
                FetchIndex(
                    name: index.name,
                    elements: index.elements.map { FetchIndex.Element(property: $0.property, ascending: $0.ascending) })
            }
            return copy
        }
        return ModelVersion(
            name: name, entities: entities,
            composites: composites.map {
                Composite(name: $0.name, attributes: $0.attributes.map(attribute), source: .synthetic)
            },
            configurations: configurations.map {
                Configuration(name: $0.name, memberEntities: $0.memberEntities, source: .synthetic)
            })
    }
}

/// Random model files: entities (some abstract, some under a parent), attributes of every type with every
/// option, relationships of every kind, user info, fetched properties, uniqueness constraints, fetch and compound
/// indexes, composites and configurations, with names and values that need escaping or are not ASCII. Each comes
/// with the model it stands for, made in code.
struct ModelFileGenerator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// Odd text for names and values: references, quotes, non-ASCII letters, combining marks, emoji, tabs and
    /// line breaks (written as character references), spaces, nothing at all.
    static let oddTexts = [
        "a&b", "q\"uote", "apo's", "less<than>more", "Café", "名前", "e\u{301}", "🦊fox", "tab\there", "line\nbreak",
        "cr\rhere", " spaced ", "", "&amp;", "x;y", "_under", "123",
    ]

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }

    private mutating func text(_ plain: String) -> String {
        chance(15) ? plain + pick(Self.oddTexts) : plain
    }

    private mutating func maybe(_ plain: String, _ percent: Int = 30) -> String? {
        chance(percent) ? text(plain) : nil
    }

    private mutating func userInfo() -> ([String: String], [WrittenElement]) {
        guard chance(30) else { return ([:], []) }
        var entries: [String: String] = [:]
        var written: [WrittenElement] = []
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let key = text("key\(index)")
            let value = text("value\(index)")
            entries[key] = value
            written.append(WrittenElement("entry", [("key", key), ("value", value)]))
        }
        return (entries, [WrittenElement("userInfo", children: written)])
    }

    private mutating func attribute(_ index: Int) -> (Attribute, WrittenElement) {
        let type = pick(AttributeType.allCases)
        let name = text("attribute\(index)")
        let isDate = type == .date
        let optional = chance(50), transient = chance(15), indexed = chance(10)
        let defaultValue = maybe(isDate ? "12345.5" : "7"), minValue = maybe("1", 15), maxValue = maybe("99", 15)
        let regex = maybe("^[a-z]+$", 10), elementID = maybe("id\(index)", 15), modifier = maybe("v2", 10)
        let transformer = type == .transformable ? maybe("NSSecureUnarchiveFromData", 60) : nil
        let composite = type == .composite ? maybe("Place", 70) : nil
        let (info, infoElements) = userInfo()
        let attribute = Attribute(
            name: name, type: type, typeName: type.rawValue, isOptional: optional, isTransient: transient,
            defaultValue: defaultValue, minValue: minValue, maxValue: maxValue, regularExpression: regex,
            elementID: elementID, versionHashModifier: modifier, valueTransformerName: transformer,
            compositeName: composite, isIndexed: indexed, userInfo: info)
        let written = WrittenElement(
            "attribute",
            [
                ("name", name), ("optional", optional ? "YES" : nil), ("transient", transient ? "YES" : nil),
                ("attributeType", type.rawValue),
                (isDate ? "defaultDateTimeInterval" : "defaultValueString", defaultValue),
                (isDate ? "minDateTimeInterval" : "minValueString", minValue),
                (isDate ? "maxDateTimeInterval" : "maxValueString", maxValue),
                ("regularExpressionString", regex), ("valueTransformerName", transformer), ("composite", composite),
                ("indexed", indexed ? "YES" : nil), ("elementID", elementID), ("versionHashModifier", modifier),
                ("usesScalarValueType", chance(30) ? "NO" : nil),
            ], children: infoElements)
        return (attribute, written)
    }

    private mutating func relationship(_ index: Int, entities: [String]) -> (Relationship, WrittenElement) {
        let name = text("relationship\(index)")
        let destination = chance(90) ? pick(entities) : nil
        let inverse = maybe("inverse\(index)", 60)
        let inverseEntity = inverse != nil && chance(80) ? destination : nil
        let optional = chance(60), toMany = chance(50), ordered = toMany && chance(40), transient = chance(10)
        let rule = chance(90) ? pick(["Nullify", "Cascade", "Deny", "No Action", "Odd rule"]) : nil
        let minCount = toMany && chance(30) ? Int.random(in: 0...3, using: &random) : nil
        let maxCount = toMany && chance(30) ? Int.random(in: 3...9, using: &random) : nil
        let elementID = maybe("rid\(index)", 15), modifier = maybe("m", 10)
        let (info, infoElements) = userInfo()
        let relationship = Relationship(
            name: name, destinationEntity: destination, inverseName: inverse, inverseEntity: inverseEntity,
            isOptional: optional, isToMany: toMany, isOrdered: ordered, deletionRuleName: rule, minCount: minCount,
            maxCount: maxCount, isTransient: transient, elementID: elementID, versionHashModifier: modifier,
            userInfo: info)
        let written = WrittenElement(
            "relationship",
            [
                ("name", name), ("optional", optional ? "YES" : nil), ("transient", transient ? "YES" : nil),
                ("toMany", toMany ? "YES" : nil), ("ordered", ordered ? "YES" : nil),
                ("minCount", minCount.map { "\($0)" }),
                ("maxCount", maxCount.map { "\($0)" }), ("deletionRule", rule), ("destinationEntity", destination),
                ("inverseName", inverse), ("inverseEntity", inverseEntity), ("elementID", elementID),
                ("versionHashModifier", modifier),
            ], children: infoElements)
        return (relationship, written)
    }

    /// A model and its file's text.
    mutating func model() -> (ModelVersion, String) {
        let count = Int.random(in: 1...6, using: &random)
        let names = (0..<count).map { index in text("Entity\(index)") }
        var entities: [Entity] = []
        var writtenEntities: [WrittenElement] = []
        for (position, name) in names.enumerated() {
            let parent = position > 0 && chance(30) ? names[Int.random(in: 0..<position, using: &random)] : nil
            let abstract = chance(15)
            let className = chance(70) ? text(name + "Class") : nil
            var children: [WrittenElement] = []
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            var fetched: [FetchedProperty] = []
            for index in 0..<Int.random(in: 0...6, using: &random) {
                let (attribute, written) = attribute(index)
                attributes.append(attribute)
                children.append(written)
            }
            for index in 0..<Int.random(in: 0...3, using: &random) {
                let (relationship, written) = relationship(index, entities: names)
                relationships.append(relationship)
                children.append(written)
            }
            if chance(20) {
                let name = text("fetched")
                fetched.append(FetchedProperty(name: name, source: .synthetic))
                children.append(
                    WrittenElement(
                        "fetchedProperty", [("name", name), ("optional", "YES")],
                        children: [WrittenElement("fetchRequest", [("name", "r"), ("entity", names[0])])]))
            }
            var constraints: [UniquenessConstraint] = []
            if chance(25), !attributes.isEmpty {
                let properties = attributes.prefix(2).map(\.name)
                constraints.append(UniquenessConstraint(properties: properties))
                children.append(
                    WrittenElement(
                        "uniquenessConstraints",
                        children: [
                            WrittenElement(
                                "uniquenessConstraint",
                                children: properties.map { WrittenElement("constraint", [("value", $0)]) })
                        ]))
            }
            var indexes: [FetchIndex] = []
            if chance(25), let first = attributes.first {
                let descending = chance(50)
                let indexName = text("byFirst")
                indexes.append(
                    FetchIndex(
                        name: indexName, elements: [FetchIndex.Element(property: first.name, ascending: !descending)]))
                children.append(
                    WrittenElement(
                        "fetchIndex", [("name", indexName)],
                        children: [
                            WrittenElement(
                                "fetchIndexElement",
                                [
                                    ("property", first.name), ("type", "Binary"),
                                    ("order", descending ? "descending" : "ascending"),
                                ])
                        ]))
            }
            if chance(15), let last = attributes.last {
                indexes.append(
                    FetchIndex(name: "\(name)_compound_1", elements: [FetchIndex.Element(property: last.name)]))
                children.append(
                    WrittenElement(
                        "compoundIndexes",
                        children: [
                            WrittenElement("compoundIndex", children: [WrittenElement("index", [("value", last.name)])])
                        ]))
            }
            let (info, infoElements) = userInfo()
            children += infoElements
            let elementID = maybe("eid", 15), modifier = maybe("mod", 10)
            entities.append(
                Entity(
                    name: name, className: className, parentName: parent, isAbstract: abstract, elementID: elementID,
                    versionHashModifier: modifier, attributes: attributes, relationships: relationships,
                    fetchedProperties: fetched, uniquenessConstraints: constraints, fetchIndexes: indexes,
                    userInfo: info))
            writtenEntities.append(
                WrittenElement(
                    "entity",
                    [
                        ("name", name), ("representedClassName", className), ("parentEntity", parent),
                        ("isAbstract", abstract ? "YES" : nil), ("elementID", elementID),
                        ("versionHashModifier", modifier), ("syncable", chance(30) ? "YES" : nil),
                    ], children: children))
        }
        var composites: [Composite] = []
        var rootChildren = writtenEntities
        if chance(30) {
            let (member, written) = attribute(0)
            composites.append(Composite(name: "Place", attributes: [member], source: .synthetic))
            rootChildren.append(WrittenElement("composite", [("name", "Place")], children: [written]))
        }
        var configurations: [Configuration] = []
        if chance(30) {
            let members = Array(names.prefix(2))
            configurations.append(Configuration(name: text("Cloud"), memberEntities: members, source: .synthetic))
            rootChildren.append(
                WrittenElement(
                    "configuration", [("name", configurations[0].name), ("usedWithCloudKit", "YES")],
                    children: members.map { WrittenElement("memberEntity", [("name", $0)]) }))
        }
        if chance(30) {
            rootChildren.append(WrittenElement("elements", children: [WrittenElement("element", [("name", names[0])])]))
        }
        let root = WrittenElement(
            "model",
            [
                ("type", "com.apple.IDECoreDataModeler.DataModel"), ("documentVersion", "1.0"),
                ("lastSavedToolsVersion", "22522"), ("systemVersion", "23F79"),
            ], children: rootChildren)
        let version = ModelVersion(
            name: "Generated", entities: entities, composites: composites, configurations: configurations)
        return (version, root.document)
    }
}

/// Every `contents` file of the shared corpus of real Xcode models (and of the repository's own models) reads the
/// same on both roads, and the tag reader takes nearly all of them.
@Suite(
    .tags(.corpus), .skippable(.corpus),
    .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
struct ModelTagTreeCorpusTests {
    static func contentsFiles(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            if path == "contents" || path.hasSuffix("/contents") { files.append(folder + "/" + path) }
        }
        return files.sorted()
    }

    @Test func everyRealModelFileReadsTheSameOnBothRoads() throws {
        let files =
            Self.contentsFiles(under: ValidationSupport.corpus.path)
            + Self.contentsFiles(under: ValidationSupport.packageRoot.appendingPathComponent("Models").path)
        try #require(files.count > 50)
        var taken = 0
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: file).map { Array($0) })
            if try ModelTagTree.read(bytes, file: file, pool: TagRecordPool()) != nil { taken += 1 }
            ModelTagTreeTests.expectSameOnBothRoads(bytes, file)
        }
        #expect(taken * 10 >= files.count * 9, "the tag reader took \(taken) of \(files.count)")
    }
}
