import Remodel

/// The `contents` file of a compiled model, as Xcode writes a model: entities in name order, each with
/// its attributes, then its relationships, in name order, then its fetch indexes, uniqueness
/// constraints and user info. Flags that are `NO` are left out, as Xcode leaves them out.
extension CompiledModel {
    /// The model's XML.
    var contents: String { element.document }

    /// The model's root element.
    private var element: WrittenElement {
        let identifier = versionIdentifiers.first { !$0.isEmpty } ?? ""
        let model = WrittenElement(
            "model",
            [
                ("type", "com.apple.IDECoreDataModeler.DataModel"), ("documentVersion", "1.0"),
                ("lastSavedToolsVersion", "1"), ("systemVersion", ""), ("minimumToolsVersion", "Automatic"),
                ("sourceLanguage", "Swift"), ("userDefinedModelVersionIdentifier", identifier),
            ],
            children: entities.map(\.element) + composites.map(\.element))
        return model
    }

    /// Checks that every text the model file would hold is one XML can hold: each part of the decoder checks the
    /// texts it reads, and this is the net under them all (a text an archive may hold but a model file cannot,
    /// written as it is, is a file no reader reads back).
    func checkWritable() throws(Failure) {
        func walk(_ element: WrittenElement, _ path: String) throws(Failure) {
            let named = element.attributes.first { $0.name == "name" }.map { "\(element.name) \($0.value)" }
            let place = [path, named ?? element.name].filter { !$0.isEmpty }.joined(separator: ", ")
            for attribute in element.attributes {
                try CompiledModelDecoder.checkWritable(attribute.value, what: "\(place): \(attribute.name)")
            }
            for child in element.children { try walk(child, place) }
        }
        let model = element
        for attribute in model.attributes {
            try CompiledModelDecoder.checkWritable(attribute.value, what: "the model's \(attribute.name)")
        }
        for child in model.children { try walk(child, "") }
    }

    /// `YES` for a flag that is set, nothing (the attribute left out) otherwise.
    static func yes(_ flag: Bool) -> String? { flag ? "YES" : nil }
}

extension CompiledModel.Entity {
    var element: WrittenElement {
        var children = attributes.map(\.element) + relationships.map(\.element)
        children += fetchIndexes.map { index in
            WrittenElement(
                "fetchIndex", [("name", index.name)],
                children: index.elements.map {
                    WrittenElement(
                        "fetchIndexElement",
                        [
                            ("property", $0.property), ("type", "Binary"),
                            ("order", $0.ascending ? "ascending" : "descending"),
                        ])
                })
        }
        if !uniquenessConstraints.isEmpty {
            children.append(
                WrittenElement(
                    "uniquenessConstraints",
                    children: uniquenessConstraints.map { names in
                        WrittenElement(
                            "uniquenessConstraint",
                            children: names.map { WrittenElement("constraint", [("value", $0)]) })
                    }))
        }
        if let info = CompiledModel.userInfoElement(userInfo) { children.append(info) }
        return WrittenElement(
            "entity",
            [
                ("name", name), ("representedClassName", className), ("parentEntity", parentName),
                ("isAbstract", CompiledModel.yes(isAbstract)), ("elementID", renamingIdentifier),
                ("versionHashModifier", versionHashModifier), ("syncable", "YES"),
            ],
            children: children)
    }
}

extension CompiledModel.Attribute {
    var element: WrittenElement {
        let isDate = type == .date
        func text(_ value: CompiledModel.Value?) -> String? {
            switch value {
            case .integer(let number)?: return String(number)
            case .real(let number)?: return number.isFinite ? String(number) : nil
            case .boolean(let flag)?: return flag ? "YES" : "NO"
            case .text(let text)?: return text
            case .date(let seconds)?: return CompiledModel.text(of: seconds)
            case nil: return nil
            }
        }
        var attributes: [(String, String?)] = [
            ("name", name), ("optional", CompiledModel.yes(isOptional)), ("transient", CompiledModel.yes(isTransient)),
            ("attributeType", type.rawValue),
            ("derived", CompiledModel.yes(derivationExpression != nil)), ("derivationExpression", derivationExpression),
        ]
        attributes += [
            (isDate ? "minDateTimeInterval" : "minValueString", text(minimum)),
            (isDate ? "maxDateTimeInterval" : "maxValueString", text(maximum)),
            (isDate ? "defaultDateTimeInterval" : "defaultValueString", text(defaultValue)),
            ("allowsExternalBinaryDataStorage", CompiledModel.yes(allowsExternalStorage)),
            ("preserveAfterDeletion", CompiledModel.yes(preservesValueAfterDeletion)),
            ("indexed", CompiledModel.yes(isIndexed)),
            ("valueTransformerName", valueTransformerName), ("customClassName", valueClassName),
            ("composite", compositeName),
            ("elementID", renamingIdentifier), ("versionHashModifier", versionHashModifier),
        ]
        let info = CompiledModel.userInfoElement(userInfo)
        return WrittenElement("attribute", attributes, children: info.map { [$0] } ?? [])
    }
}

extension CompiledModel.Relationship {
    var element: WrittenElement {
        let attributes: [(String, String?)] = [
            ("name", name), ("optional", CompiledModel.yes(isOptional)), ("transient", CompiledModel.yes(isTransient)),
            ("toMany", CompiledModel.yes(isToMany)), ("ordered", CompiledModel.yes(isOrdered)),
            ("minCount", minCount > 0 ? String(minCount) : nil),
            ("maxCount", isToMany ? (maxCount > 0 ? String(maxCount) : nil) : "1"),
            ("deletionRule", deletionRule.rawValue), ("destinationEntity", destination),
            ("inverseName", inverseName), ("inverseEntity", inverseName == nil ? nil : destination),
            ("elementID", renamingIdentifier), ("versionHashModifier", versionHashModifier),
        ]
        let info = CompiledModel.userInfoElement(userInfo)
        return WrittenElement("relationship", attributes, children: info.map { [$0] } ?? [])
    }
}

extension CompiledModel {
    /// `<userInfo>` with one `<entry key value/>` per pair, in key order; nil when empty.
    static func userInfoElement(_ info: [String: String]) -> WrittenElement? {
        guard !info.isEmpty else { return nil }
        return WrittenElement(
            "userInfo",
            children: info.sorted { $0.key < $1.key }.map {
                WrittenElement("entry", [("key", $0.key), ("value", $0.value)])
            })
    }

    /// A number of seconds as Xcode writes a date: whole seconds without a fraction (`694224000`).
    static func text(of number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}

extension CompiledModel.Composite {
    /// `<composite name>` with its members, as Xcode writes one.
    var element: WrittenElement {
        WrittenElement("composite", [("name", name)], children: elements.map(\.element))
    }
}
