import Foundation
import Testing

@testable import Remodel

/// `remodel validate` on Xcode mapping models written by hand (as Xcode lays them out): every
/// problem once, with the line and column in `xcmapping.xml`.
struct XcodeMappingValidationTests {
    typealias E = XcodeExpression
    private static func source(_ path: String) -> E { E(.keyPath(E(.variable("source")), path)) }

    /// A mapping model that says what inference cannot know, in every form that translates.
    static func complete(_ project: ShopProject) throws -> XcodeMappingFixture {
        XcodeMappingFixture(
            sourcePath: "/Users/someone/Shop/Shop.xcdatamodeld/Shop.xcdatamodel",
            destinationPath: "/Users/someone/Shop/Shop.xcdatamodeld/Shop 2.xcdatamodel",
            sourceSnapshot: try project.snapshot("Shop"), destinationSnapshot: try project.snapshot("Shop 2"),
            entities: [
                XcodeMappingFixture.EntityMapping(
                    source: "Item", destination: "Item", filter: "count > 0 AND code != \"skip&drop\"",
                    attributes: [
                        .init(
                            "title", E(.function(operand: source("name"), selector: "uppercaseString", arguments: []))),
                        .init("price", source("price")), .init("active", source("active")), .init("count"),
                        .init("code"),
                    ],
                    relationships: [
                        .init(
                            "labels",
                            E(
                                .function(
                                    operand: E(.variable("manager")), selector: RelationshipTranslation.byEntityMapping,
                                    arguments: [E(.constant(.string("TagToTag"))), source("tags")])))
                    ]),
                XcodeMappingFixture.EntityMapping(
                    source: "Tag", destination: "Tag", attributes: [.init("label")], relationships: [.init("items")]),
                XcodeMappingFixture.EntityMapping(source: "Note", destination: nil),
            ])
    }

    @Test func aCompleteMappingModelValidatesClean() throws {
        let project = try ShopProject()
        try project.write(try Self.complete(project))
        #expect(try project.validate() == [])
    }

    /// Unknown entities and properties, an untranslatable filter (the column counts the `&amp;` as
    /// written), an untranslatable expression, undecodable data and a type error.
    @Test func everyProblemIsReportedAtItsPlace() throws {
        let project = try ShopProject()
        var fixture = try Self.complete(project)
        fixture.entities[0].filter = "code == 'a&b' AND name BEGINSWITH 'x'"
        fixture.entities[0].attributes = [
            .init("titel"), .init("code", E(.function(operand: Self.source("name"), selector: "hash", arguments: []))),
            .init("count", Self.source("name")), .init("price", rawData: "bm90IGEgcGxpc3Q="),
        ]
        fixture.entities[1].source = "Tga"
        let path = try project.write(fixture)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        func line(_ needle: String) throws -> Int { try #require(XcodeMappingFixture.line(of: needle, in: text)) }
        /// The line of the value expression data of the property mapping named `name`.
        func data(_ name: String) throws -> Int {
            let lines = text.components(separatedBy: "\n")
            let nameLine = try line(">\(name)<")
            return try #require(lines[..<nameLine].lastIndex { $0.contains("valueexpressiondata") }) + 1
        }
        let file = "…/Mappings/ShopToShop2.xcmappingmodel/xcmapping.xml"
        let filter = try line("sourcefilterpredicatestring")
        // The predicate's text starts at column 69; `&amp;` is five characters as written, one as read.
        let filterColumn = 69 + "code == 'a&amp;b' AND ".count
        let model = try line("XDDEVMAPPINGMODEL\" id")
        expectLines(
            try project.validate(),
            [
                "\(file):\(model):5: warning: no entity mapping reads Tag, so Core Data would drop its objects in this step; Remodel carries them over as inferred (to drop them, write this step as a Remodel mapping file with <entity source=\"Tag\"/>) [xcode-mapping-unmapped-entity]",
                "\(file):\(try line(">Tga<")):52: error: the source version 'Shop' has no entity 'Tga'; did you mean 'Tag'? [mapping-unknown-entity]",
                "\(file):\(try line(">Item<") - 1):5: error: Item.active: Boolean → Integer 16 cannot be inferred (Boolean values do not convert to Integer 16 without loss); add to a mapping file: <attribute name=\"active\" value=\"int($source.active)\"/> [mapping-incomplete]",
                "\(file):\(filter):\(filterColumn): error: the filter \"code == 'a&b' AND name BEGINSWITH 'x'\" of the entity mapping ItemToItem has no Remodel translation: the operator BEGINSWITH has no Remodel translation (only ==, !=, <, <=, >, >=, IN and BETWEEN) [xcode-mapping-filter]",
                "\(file):\(try line(">titel<")):46: error: Item in 'Shop 2' has no attribute 'titel'; did you mean 'title'? [mapping-unknown-attribute]",
                "\(file):\(try data("code")):9: error: ItemToItem.code: the Xcode expression FUNCTION($source.name, \"hash\") has no Remodel translation: the method hash has no Remodel translation [xcode-mapping-expression]",
                "\(file):\(try data("count")):9: error: Item.count: cannot assign String to an Integer 64 attribute; convert with int(…) (nil when the text is not a number) (in $source.name, translated from the Xcode expression $source.name) [expression-type]",
                "\(file):\(try line(">bm90IGEgcGxpc3Q=<")):9: error: the value expression of price cannot be read: not a binary property list: the data does not start with 'bplist00', or is too short to be a binary property list [xcode-mapping-data]",
                "\(file):\(try data("labels")):9: warning: labels names the entity mapping TagToTag, which this mapping model does not have; Remodel rebuilds the relationship from tags all the same [xcode-mapping-unknown-entity-mapping]",
            ])
    }

    /// A translated filter that does not type-check points into the predicate text, at the comparison at fault.
    @Test func aFilterTypeErrorPointsIntoThePredicate() throws {
        let project = try ShopProject()
        var fixture = try Self.complete(project)
        fixture.entities[0].filter = "count > 0 AND name > 3"
        let path = try project.write(fixture)
        let line = try #require(
            XcodeMappingFixture.line(
                of: "sourcefilterpredicatestring", in: try String(contentsOfFile: path, encoding: .utf8)))
        // The predicate's text starts at column 69; `name > 3` 14 characters in, 17 as written (`>` is `&gt;`).
        expectLines(
            try project.validate(),
            [
                "…/Mappings/ShopToShop2.xcmappingmodel/xcmapping.xml:\(line):86: error: cannot compare String and Integer; convert the String with int(…) (nil when the text is not a number) to compare numbers, or convert the Integer with string(…) to compare text (in ((($source.count > 0) ?? false) && (($source.name > 3) ?? false)), translated from the Xcode expression count > 0 AND name > 3) [expression-type]"
            ])
    }

    /// Paths written on another machine, naming another bundle: the model snapshots find the versions.
    @Test func stalePathsAreMatchedByTheModelSnapshots() throws {
        let project = try ShopProject()
        var fixture = try Self.complete(project)
        fixture.sourcePath = "/Users/someone/Old/Store.xcdatamodeld/Store 1.xcdatamodel"
        fixture.destinationPath = "/Users/someone/Old/Store.xcdatamodeld/Store 2.xcdatamodel"
        let path = try project.write(fixture)
        #expect(try project.validate() == [])
        let loaded = try #require(XcodeMappingLoader.load(path: path, bundle: try project.bundle()))
        let match = try #require(loaded.translation?.match)
        #expect(
            "\(match.source.name) \(match.sourceMethod.rawValue), \(match.destination.name) \(match.destinationMethod.rawValue)"
                == "Shop by model snapshot, Shop 2 by model snapshot")
    }

    @Test func noVersionMatchingIsSaidWithTheClosest() throws {
        let project = try ShopProject()
        var fixture = try Self.complete(project)
        fixture.destinationPath = "Shop.xcdatamodeld/Shop 3.xcdatamodel"
        var snapshot = try project.snapshot("Shop 2")
        snapshot.entities["Item"]?.insert("rating")
        fixture.destinationSnapshot = snapshot
        let path = try project.write(fixture)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = try #require(XcodeMappingFixture.line(of: "destinationmodelpath", in: text))
        expectLines(
            try project.validate(),
            [
                "…/Mappings/ShopToShop2.xcmappingmodel/xcmapping.xml:\(line):62: error: no version matches: its destination model path 'Shop.xcdatamodeld/Shop 3.xcdatamodel' names no version of 'Shop', and its destination model snapshot matches no version of 'Shop'; the closest is 'Shop 2', which has no Item.rating [xcode-mapping-unknown-version]"
            ])
    }

    @Test func aNamedVersionThatDiffersFromTheSnapshotIsAWarning() throws {
        let project = try ShopProject()
        var fixture = try Self.complete(project)
        var snapshot = try project.snapshot("Shop")
        snapshot.entities["Gift"] = ["wrapping"]
        fixture.sourceSnapshot = snapshot
        let path = try project.write(fixture)
        let line = try #require(
            XcodeMappingFixture.line(of: "sourcemodelpath", in: try String(contentsOfFile: path, encoding: .utf8)))
        expectLines(
            try project.validate(),
            [
                "…/Mappings/ShopToShop2.xcmappingmodel/xcmapping.xml:\(line):57: warning: the source model path names version 'Shop', but the model the mapping was made with differs from it: 'Shop' has no entity Gift; check the mapping in Xcode [xcode-mapping-snapshot-differs]"
            ])
    }

    /// A Remodel mapping file for the same step wins; validate says so, and the catalog uses it.
    @Test func aRemodelMappingFileForTheSameStepWins() throws {
        let project = try ShopProject()
        let path = try project.write(try Self.complete(project))
        try
            #"<mapping model="Shop" sourceVersion="Shop" destinationVersion="Shop 2"><entity source="Item" destination="Item"><attribute name="title" value="$source.name"/><attribute name="price" value="decimal($source.price)"/><attribute name="active" value="int($source.active)"/></entity></mapping>"#
            .write(toFile: project.mappings + "/shop.xml", atomically: true, encoding: .utf8)
        let line = try #require(
            XcodeMappingFixture.line(
                of: "XDDEVMAPPINGMODEL\" id", in: try String(contentsOfFile: path, encoding: .utf8)))
        expectLines(
            try project.validate(),
            [
                "…/Mappings/ShopToShop2.xcmappingmodel/xcmapping.xml:\(line):5: warning: the Remodel mapping file …/Mappings/shop.xml maps the same step ('Shop' to 'Shop 2') and is used instead of this mapping model [xcode-mapping-superseded]"
            ])
        let catalog = MappingCatalog(directory: project.mappings, bundle: try project.bundle())
        let mapping = try #require(catalog.mappings[MappingCatalog.VersionPair(source: "Shop", destination: "Shop 2")])
        #expect(mapping.files == [project.mappings + "/shop.xml"])
        #expect(mapping.mapping(toDestination: "Item")?.attribute("title")?.value?.text == "$source.name")
        #expect(catalog.diagnostics.map(\.rule) == ["xcode-mapping-superseded"])
    }

    /// Policies: a warning each, gone for the classes registered; `$entityPolicy` calls are the class's job.
    @Test func policyClassesAreWarnedAboutUnlessRegistered() throws {
        let project = try ShopProject()
        var fixture = try Self.complete(project)
        fixture.entities[0].policy = "ShopKit.ItemPolicy"
        fixture.entities[0].attributes.append(
            .init(
                "code",
                E(
                    .function(
                        operand: E(.variable("entityPolicy")), selector: "codeFor:", arguments: [Self.source("code")])))
        )
        fixture.entities[1].policy = "ShopKit.TagPolicy"
        let path = try project.write(fixture)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let file = "…/Mappings/ShopToShop2.xcmappingmodel/xcmapping.xml"
        let lines = text.components(separatedBy: "\n").enumerated().filter {
            $0.element.contains("migrationpolicyclassname")
        }.map { $0.offset + 1 }
        let item =
            "\(file):\(lines[1]):66: warning: the entity mapping ItemToItem needs a Swift policy named 'ShopKit.ItemPolicy' (Core Data runs that class here); register an EntityPolicy under that name (MigrationOptions.register(_:forClass:)) before migrating, or write this step as a Remodel mapping file [xcode-mapping-policy]"
        let tag =
            "\(file):\(lines[0]):66: warning: the entity mapping TagToTag needs a Swift policy named 'ShopKit.TagPolicy' (Core Data runs that class here); register an EntityPolicy under that name (MigrationOptions.register(_:forClass:)) before migrating, or write this step as a Remodel mapping file [xcode-mapping-policy]"
        let all = try project.validate()
        #expect(all.filter { $0.contains("[xcode-mapping-policy]") }.sorted() == [item, tag].sorted())
        #expect(
            all.filter { $0.contains("[xcode-mapping-expression]") }.map {
                $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ")
            } == [
                "warning: ItemToItem.code: the Xcode expression FUNCTION($entityPolicy, \"codeFor:\", $source.code) has no Remodel translation (FUNCTION($entityPolicy, \"codeFor:\", …) calls the entity mapping's migration policy class, which is Objective-C or Swift code of the app); the Swift policy registered for ShopKit.ItemPolicy makes these objects [xcode-mapping-expression]"
            ])
        #expect(all.count == 3)
        #expect(
            try project.validate(registeredPolicyClasses: ["ShopKit.TagPolicy"]).filter {
                $0.contains("[xcode-mapping-policy]")
            } == [item])
    }

    private func expectLines(
        _ actual: [String], _ expected: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        expectSameText(actual.joined(separator: "\n"), expected.joined(separator: "\n"), sourceLocation: sourceLocation)
    }
}
