/// Rules naming what a model file states that Remodel does not implement (docs/MODELS.md, "Model features"):
/// every option for an Apple platform service Remodel has no counterpart of, fetched properties, fetch request templates, fetch
/// index elements Remodel does not index as Core Data does, and any XML attribute or element Remodel does not know.
/// Ignoring each is harmless to the data, so each is a warning: nothing a model states is ignored without a word.
/// Xcode's own bookkeeping (tool versions, `syncable`, `codeGenerationType`, `usesScalarValueType`, the diagram's
/// `<elements>`) states nothing about the data and is not named; nor is `allowsExternalBinaryDataStorage`, which
/// allows Core Data to keep a large value outside its table and so allows Remodel to keep every one inside.
enum FormatRules {
    static func check(_ version: ModelVersion, into list: inout DiagnosticList) {
        // Warnings only: the gate that refuses models with errors has nothing to find here.
        guard list.keepsWarnings else { return }
        unknownAttributes(of: version.source, known: Known.model, what: "the model", into: &list)
        for entity in version.entities {
            check(entity, into: &list)
        }
        for composite in version.composites {
            unknownAttributes(
                of: composite.source, known: Known.composite, what: "composite '\(composite.name)'", into: &list)
        }
        for configuration in version.configurations {
            unknownAttributes(
                of: configuration.source, known: Known.configuration, what: "configuration '\(configuration.name)'",
                into: &list)
        }
        for other in version.otherElements {
            let name = other.source.attribute("name")
            if other.name == "fetchRequest", other.parent == "model" {
                let entity = other.source.attribute("entity").map { " (entity \($0))" } ?? ""
                list.report(
                    .ignoredFetchRequest,
                    "fetch request template '\(name ?? "")'\(entity) is a named fetch Core Data keeps in the model; Remodel ignores it: write the query in the app's code",
                    at: other.source.location)
            } else {
                list.report(
                    .unknownModelElement,
                    "\(other.parent) holds a <\(other.name)> element, which Remodel does not know: it is kept as read and has no effect",
                    at: other.source.location)
            }
        }
    }

    private static func check(_ entity: Entity, into list: inout DiagnosticList) {
        unknownAttributes(of: entity.source, known: Known.entity, what: "entity '\(entity.name)'", into: &list)
        for attribute in entity.attributes {
            let name = "attribute '\(entity.name).\(attribute.name)'"
            unknownAttributes(of: attribute.source, known: Known.attribute, what: name, into: &list)
            options(of: attribute.source, what: name, into: &list)
        }
        for relationship in entity.relationships {
            let name = "relationship '\(entity.name).\(relationship.name)'"
            unknownAttributes(of: relationship.source, known: Known.relationship, what: name, into: &list)
            options(of: relationship.source, what: name, into: &list)
        }
        for property in entity.fetchedProperties {
            let name = "fetched property '\(entity.name).\(property.name)'"
            unknownAttributes(of: property.source, known: Known.fetchedProperty, what: name, into: &list)
            list.report(
                .ignoredFetchedProperty,
                "\(name) is a fetch Core Data runs when the property is read; Remodel stores nothing for it and the generated records have no property for it: fetch its objects with a query",
                at: property.source.location)
        }
        for index in entity.fetchIndexes {
            unknownAttributes(
                of: index.source, known: Known.fetchIndex, what: "fetch index '\(index.name)'", into: &list)
            check(index, of: entity, into: &list)
        }
    }

    /// The options Core Data gives a meaning Remodel has no counterpart of.
    private static func options(of source: ElementSource, what name: String, into list: inout DiagnosticList) {
        func set(_ key: String) -> Bool { source.attribute(key) == "YES" }
        if set("storedInTruthFile") {
            list.report(
                .ignoredPlatformOption,
                "\(name) is also written to Core Data's external record files for Spotlight (storedInTruthFile), which Remodel does not write: the value is kept in the store like any other",
                at: source.location(of: "storedInTruthFile"))
        }
        if set("spotlightIndexingEnabled") {
            list.report(
                .ignoredPlatformOption,
                "\(name) is indexed by Spotlight (spotlightIndexingEnabled) on Apple's platforms; Remodel has no Spotlight index and ignores it",
                at: source.location(of: "spotlightIndexingEnabled"))
        }
        if set("preserveAfterDeletion") {
            list.report(
                .ignoredPlatformOption,
                "\(name) is kept in Core Data's persistent history when its object is deleted (preserveAfterDeletion); Remodel keeps no persistent history and ignores it",
                at: source.location(of: "preserveAfterDeletion"))
        }
        if set("allowsCloudEncryption") {
            list.report(
                .ignoredPlatformOption,
                "\(name) is encrypted in CloudKit (allowsCloudEncryption); Remodel does not sync with CloudKit and ignores it",
                at: source.location(of: "allowsCloudEncryption"))
        }
    }

    /// A fetch index Remodel does not build as Core Data builds it: an element given by an expression (the index is
    /// not created), or an R-tree (an ordinary index is).
    private static func check(_ index: FetchIndex, of entity: Entity, into list: inout DiagnosticList) {
        let name = "fetch index '\(index.name)' of entity '\(entity.name)'"
        for element in index.elements {
            unknownAttributes(
                of: element.source, known: Known.fetchIndexElement, what: "an element of \(name)", into: &list)
        }
        if let expression = index.elements.first(where: { $0.source.attribute("expression") != nil }) {
            list.report(
                .ignoredFetchIndexElement,
                "\(name) indexes an expression (\(expression.source.attribute("expression") ?? "")), which Remodel does not index: the index is not created, and a fetch by it reads the table",
                at: expression.source.location(of: "expression"))
        } else if let tree = index.elements.first(where: { $0.source.attribute("type") == "RTree" }) {
            list.report(
                .ignoredFetchIndexElement,
                "\(name) is an R-tree (type=\"RTree\"), which SQLite keeps only as a virtual table; Remodel creates an ordinary index on its properties instead",
                at: tree.source.location(of: "type"))
        }
    }

    /// Each XML attribute of an element that Remodel does not know.
    private static func unknownAttributes(
        of source: ElementSource, known: Set<String>, what name: String, into list: inout DiagnosticList
    ) {
        for key in source.attributes.keys.sorted() where !known.contains(key) {
            list.report(
                .unknownModelAttribute,
                "\(name) has the XML attribute '\(key)', which Remodel does not know: it is kept as read and has no effect",
                at: source.location(of: key))
        }
    }

    /// The XML attributes Remodel knows on each element: those it reads, those it names with a rule here, and Xcode's
    /// own bookkeeping.
    private enum Known {
        static let model: Set<String> = [
            "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
            "sourceLanguage",
            "userDefinedModelVersionIdentifier", "macOSVersion", "iOSVersion", "name",
        ]
        static let entity: Set<String> = [
            "name", "representedClassName", "parentEntity", "isAbstract", "elementID", "versionHashModifier",
            "syncable",
            "codeGenerationType",
        ]
        static let property: Set<String> = [
            "name", "optional", "transient", "elementID", "versionHashModifier", "syncable", "indexed",
            "spotlightIndexingEnabled", "storedInTruthFile", "preserveAfterDeletion", "allowsCloudEncryption",
        ]
        static let attribute: Set<String> = property.union([
            "attributeType", "defaultValueString", "minValueString", "maxValueString", "defaultDateTimeInterval",
            "minDateTimeInterval", "maxDateTimeInterval", "regularExpressionString", "usesScalarValueType",
            "allowsExternalBinaryDataStorage", "valueTransformerName", "customClassName", "composite", "derived",
            "derivationExpression",
        ])
        static let relationship: Set<String> = property.union([
            "toMany", "ordered", "minCount", "maxCount", "deletionRule", "destinationEntity", "inverseName",
            "inverseEntity",
        ])
        static let fetchedProperty: Set<String> = property
        static let fetchIndex: Set<String> = ["name"]
        static let fetchIndexElement: Set<String> = [
            "property", "expression", "expressionType", "type", "order", "value",
        ]
        static let composite: Set<String> = ["name"]
        static let configuration: Set<String> = ["name", "usedWithCloudKit"]
    }
}
