import Foundation
import Testing

@testable import Remodel
@testable import RemodelGeneration

/// The name rule over generated models built to collide: property names drawn from stems, their case variants
/// and the members the generated code derives from them (`friendRequest`, `setFriend`, `addToFriends`, the
/// stored form of a Decimal), keywords and members of a record. Whatever the draw, every member an entity's
/// record declares — its properties and what each derives — is a distinct Swift identifier, none of them a
/// reserved name, and two runs give the same names.
struct RecordNamesPropertyTests {
    static let stems = ["friend", "Friend", "friends", "Friends", "fee", "Fee", "item", "items", "Items"]
    static let others = ["default", "id", "self", "insert", "validate", "_encode", "title", "Title", "set", "addTo"]

    /// One drawn name: a stem, a stem with a derived member's prefix or suffix, or another name.
    static func name(_ random: inout SplitMix64) -> String {
        let stem = stems[Int(random.next() % UInt64(stems.count))]
        let upper = SwiftNames.upperFirst(stem)
        switch random.next() % 7 {
        case 0: return stem + "Request"
        case 1: return "set" + upper
        case 2: return "addTo" + upper
        case 3: return "removeFrom" + upper
        case 4: return others[Int(random.next() % UInt64(others.count))]
        default: return stem
        }
    }

    /// An entity of up to eight attributes and eight relationships to itself, every name distinct as the
    /// model has it (case variants are distinct names).
    static func entity(_ random: inout SplitMix64) -> Entity {
        var used: Set<String> = []
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        for _ in 0..<(2 + Int(random.next() % 15)) {
            let drawn = name(&random)
            guard !drawn.hasPrefix("_"), used.insert(drawn).inserted else { continue }
            if random.next() % 2 == 0, attributes.count < 8 {
                let types: [AttributeType] = [.string, .decimal, .integer32, .date]
                attributes.append(Attribute(name: drawn, type: types[Int(random.next() % 4)]))
            } else if relationships.count < 8 {
                relationships.append(
                    Relationship(name: drawn, destinationEntity: "Thing", isToMany: random.next() % 2 == 0))
            }
        }
        return Entity(name: "Thing", attributes: attributes, relationships: relationships)
    }

    /// Every member the record of `shape` declares from the model, with what each derives (rule step 4).
    static func declared(_ shape: RecordShape.EntityShape) -> [String] {
        var names: [String] = []
        for field in shape.attributes {
            names.append(field.swiftName)
            if field.attribute.type == .decimal { names += SwiftNames.Allocator.decimalCompanions(field.swiftName) }
        }
        for name in shape.toOnes.map(\.swiftName) + shape.toManys.map(\.swiftName) {
            names += [name] + SwiftNames.Allocator.relationshipCompanions(name)
        }
        return names
    }

    @Test(arguments: 0..<400)
    func everyDeclaredMemberIsADistinctFreeIdentifier(_ seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9)
        let entity = Self.entity(&random)
        let version = ModelVersion(name: "Names", entities: [entity])
        let shape = RecordShape(layout: StoreLayout(version: version), modelName: "Names")
        let thing = try #require(shape.entities.first)
        let stored = thing.attributes.count + thing.toOnes.count + thing.toManys.count
        #expect(stored == entity.attributes.count + entity.relationships.count, "every property has a member")
        let names = Self.declared(thing)
        let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        let drawn = entity.attributes.map(\.name) + entity.relationships.map(\.name)
        #expect(repeated.isEmpty, "declared twice: \(repeated) from \(drawn)")
        for name in names {
            #expect(RecordNamesTests.isIdentifier(name), "\(name) is not an identifier")
            #expect(!SwiftNames.reservedMemberNames.contains(name), "\(name) is reserved")
        }
        let again = RecordShape(layout: StoreLayout(version: version), modelName: "Names")
        #expect(again.entities.first.map(Self.declared) == names, "two runs give the same names")
        // The other road: the generated file itself, whatever the rule's lists say it derives.
        let bundle = ModelBundle(name: "Names", versions: [version])
        let file = try #require(try RecordGenerator(bundle: bundle).files().first { $0.name == "Thing.swift" })
        let twice = Self.membersDeclaredTwice(file.contents)
        #expect(twice.isEmpty, "Thing.swift declares \(twice) twice, from \(drawn)")
    }

    /// A hierarchy built to collide: an abstract `Base` and two sub-entities drawn as ``entity(_:)`` draws one (so
    /// the two often have a property of one name, as Core Data allows), their relationships to `Base`, `One` or
    /// `Two`. Every type of the table's file — the hierarchy's record type, which gathers every sub-entity's
    /// associations, and each entity's type — declares each member once.
    @Test(arguments: 0..<80)
    func everyTypeOfAHierarchyDeclaresEachMemberOnce(_ seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1)
        let destinations = ["Base", "One", "Two"]
        func drawn(_ name: String) -> Entity {
            var entity = Self.entity(&random)
            entity.name = name
            entity.parentName = "Base"
            for index in entity.relationships.indices {
                entity.relationships[index].destinationEntity = destinations[Int(random.next() % 3)]
            }
            return entity
        }
        let version = ModelVersion(
            name: "Names", entities: [Entity(name: "Base", isAbstract: true), drawn("One"), drawn("Two")])
        let bundle = ModelBundle(name: "Names", versions: [version])
        let files = try RecordGenerator(bundle: bundle).files()
        let file = try #require(files.first { $0.name == "AnyBase.swift" }, "\(files.map(\.name))")
        let twice = Self.membersDeclaredTwicePerType(file.contents)
        let properties = version.entities.map {
            "\($0.name): \($0.attributes.map(\.name) + $0.relationships.map(\.name))"
        }
        #expect(twice.isEmpty, "AnyBase.swift declares \(twice) twice, from \(properties)")
    }

    /// ``membersDeclaredTwice(_:)`` for each type of a file of several (`struct`, `enum` and their extensions).
    static func membersDeclaredTwicePerType(_ text: String) -> [String] {
        let type = /^(?:public |open )?(?:struct|enum|extension) ([A-Za-z_][A-Za-z_0-9]*)/
        var bodies: [String: [Substring]] = [:]
        var current = ""
        for line in text.split(separator: "\n") {
            if let match = line.firstMatch(of: type) { current = String(match.1) }
            bodies[current, default: []].append(line)
        }
        return bodies.keys.sorted().flatMap { name in
            membersDeclaredTwice(bodies[name, default: []].joined(separator: "\n")).map { "\(name).\($0)" }
        }
    }

    /// The members a generated record file declares more than once at the type's level (`var`, `let`, `func`,
    /// static or not: a static and an instance member may share a name), but for `Encodable`'s `encode(to:)`.
    static func membersDeclaredTwice(_ text: String) -> [String] {
        let declaration = /^    (?:public |open )?(static )?(?:mutating )?(?:var|let|func) ([A-Za-z_][A-Za-z_0-9]*)/
        var seen: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            // `Encodable`'s `encode(to:)` beside GRDB's `encode(to:)`: two protocols' requirements, told apart by type.
            if line.contains("func encode(to encoder: any Encoder)") { continue }
            guard let match = line.firstMatch(of: declaration) else { continue }
            seen[(match.1 == nil ? "" : "static ") + match.2, default: 0] += 1
        }
        return seen.filter { $0.value > 1 }.keys.sorted()
    }

    /// The case that broke the generated code before the rule's companions: the relationship beside the
    /// attribute named as its request, and two relationships differing only by case.
    @Test func aRelationshipBesideItsRequestsNameAndItsCaseVariant() throws {
        let entity = Entity(
            name: "Thing",
            attributes: [Attribute(name: "friendRequest", type: .string), Attribute(name: "fee", type: .decimal)],
            relationships: [
                Relationship(name: "friend", destinationEntity: "Thing"),
                Relationship(name: "Friend", destinationEntity: "Thing"),
                Relationship(name: "friends", destinationEntity: "Thing", isToMany: true),
                Relationship(name: "Friends", destinationEntity: "Thing", isToMany: true),
            ])
        let shape = RecordShape(
            layout: StoreLayout(version: ModelVersion(name: "Names", entities: [entity])), modelName: "Names")
        let thing = try #require(shape.entities.first)
        #expect(thing.attributes.map(\.swiftName) == ["friendRequest", "fee"])
        #expect(thing.toOnes.map(\.swiftName) == ["friend_2", "Friend"])
        #expect(thing.toManys.map(\.swiftName) == ["friends", "Friends_2"])
    }
}
