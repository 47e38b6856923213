import Foundation
import Testing

@testable import Remodel

/// Composite members changed at random across three versions (added with or without a default, removed, renamed
/// by renaming identifier, widened), over random values: the migrated export, composed and step by step, must be
/// what the test works out itself from the members' history, object by object.
struct CompositeReshapePropertyTests {
    /// One member of the generated composite, as the test tracks it through the versions.
    private struct Member {
        var name: String
        var type: String
        var elementID: String?
        var defaultValue: String?
        /// The member of the first version whose values this one holds, nil for one added later.
        var origin: String?

        var xml: String {
            var text = #"<attribute name="\#(name)" optional="YES" attributeType="\#(type)""#
            if let elementID { text += #" elementID="\#(elementID)""# }
            if let defaultValue { text += #" defaultValueString="\#(defaultValue)""# }
            return text + "/>"
        }
    }

    private static func contents(_ members: [Member]) -> String {
        """
        <entity name="Box" representedClassName="Box">
            <attribute name="label" attributeType="String"/>
            <attribute name="item" optional="YES" attributeType="Composite" composite="Item"/>
        </entity>
        <composite name="Item">
            \(members.map(\.xml).joined(separator: "\n    "))
        </composite>
        """
    }

    /// The next version's members: each member kept, renamed, widened or removed, and perhaps one added.
    private static func evolve(_ members: [Member], step: Int, random: inout SplitMix64) -> [Member] {
        var next: [Member] = []
        for member in members {
            var kept = member
            kept.elementID = nil
            switch random.next() % 5 {
            case 0: continue  // removed
            case 1:
                kept.elementID = member.name
                kept.name = member.name + "r\(step)"
            case 2 where member.type == "Integer 16":
                kept.type = ["Integer 32", "Integer 64", "String"][Int(random.next() % 3)]
            default: break
            }
            next.append(kept)
        }
        if random.next() % 2 == 0 {
            let type = ["Integer 16", "String", "Double"][Int(random.next() % 3)]
            let defaultValue: String? =
                random.next() % 2 == 0 ? nil : (type == "String" ? "d\(step)" : type == "Double" ? "1.5" : "7")
            next.append(Member(name: "n\(step)", type: type, defaultValue: defaultValue))
        }
        return next
    }

    /// A value of a first-version member, as JSON.
    private static func value(_ type: String, random: inout SplitMix64) -> String {
        if random.next() % 4 == 0 { return "null" }
        switch type {
        case "Integer 16": return String(Int(random.next() % 200) - 100)
        case "Double": return String(Double(Int(random.next() % 1000)) / 8)
        default: return "\"s\(random.next() % 50)\""
        }
    }

    /// A value converted as the member's widening converts it, in export JSON.
    private static func converted(_ json: String, from: String, to: String) -> String {
        guard json != "null", from != to else { return json }
        return to == "String" ? "\"\(json)\"" : json
    }

    /// The export JSON of a member's default in the last version (nil: null).
    private static func exported(default value: String?, type: String) -> String {
        guard let value else { return "null" }
        switch type {
        case "String": return "\"\(value)\""
        case "Double": return String(Double(value)!)
        default: return value
        }
    }

    @Test(arguments: 0..<8)
    func migratedValuesAreWhatTheMembersHistorySays(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed &* 7919 &+ 3)
        let first = (0..<(2 + Int(random.next() % 3))).map { index in
            let type = ["Integer 16", "String", "Double"][Int(random.next() % 3)]
            return Member(name: "m\(index)", type: type, origin: "m\(index)")
        }
        let second = Self.evolve(first, step: 2, random: &random)
        let third = Self.evolve(second, step: 3, random: &random)
        var objects: [[String: String]] = []
        var seed = #"{"Box": ["#
        for key in 1...4 {
            var values: [String: String] = [:]
            for member in first { values[member.name] = Self.value(member.type, random: &random) }
            objects.append(values)
            let item =
                key == 4
                ? "null" : "{" + first.map { "\"\($0.name)\": \(values[$0.name]!)" }.joined(separator: ", ") + "}"
            seed += (key > 1 ? ", " : "") + #"{"_pk": \#(key), "label": "b\#(key)", "item": \#(item)}"#
        }
        seed += "]}"
        let roads = try TwoRoads(
            "Boxes",
            versions: [
                ("Boxes", Self.contents(first)), ("Boxes 2", Self.contents(second)), ("Boxes 3", Self.contents(third)),
            ],
            seed: seed)
        let export = try await roads.migrateBoth()
        // Worked out here: each last member from the first-version member it descends from, through every step.
        let firstTypes = Dictionary(uniqueKeysWithValues: first.map { ($0.name, $0.type) })
        var lines: [String] = []
        for (offset, values) in objects.enumerated() {
            let key = offset + 1
            let item: String
            if key == 4 {
                item = "null"
            } else {
                item =
                    "{"
                    + third.map { member in
                        let value: String
                        if let origin = member.origin, let stored = values[origin] {
                            value = Self.converted(stored, from: firstTypes[origin]!, to: member.type)
                        } else {
                            value = Self.exported(default: member.defaultValue, type: member.type)
                        }
                        return "\"\(member.name)\": \(value)"
                    }.joined(separator: ", ") + "}"
            }
            lines.append(#"    {"_pk": \#(key), "label": "b\#(key)", "item": \#(item)}"#)
        }
        expectSameText(export, "{\n  \"Box\": [\n" + lines.joined(separator: ",\n") + "\n  ]\n}\n")
    }
}
