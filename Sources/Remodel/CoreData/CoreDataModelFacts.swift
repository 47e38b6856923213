/// What a version's model file says that matters only to Core Data's store and that the model Remodel
/// reads does not keep: Xcode's "Model Version Identifier" (`userDefinedModelVersionIdentifier`, which
/// Core Data writes to `NSStoreModelVersionIdentifiers`) and the Binary attributes that allow external
/// storage (`allowsExternalBinaryDataStorage="YES"`, whose column then holds a marker byte first).
package struct CoreDataModelFacts: Sendable {
    /// The model version identifier, `""` when not set.
    var versionIdentifier = ""
    /// `Entity.attribute` of each attribute that allows external storage.
    var externalBinary: Set<String> = []

    /// Reads the facts from the version's `contents` file; a version not read from a file has none.
    static func read(_ version: ModelVersion) -> CoreDataModelFacts {
        guard let root = try? XMLDocumentReader.read(path: version.path) else { return CoreDataModelFacts() }
        return facts(of: root)
    }

    /// The facts of a model file's root element.
    package static func facts(of root: XMLNode) -> CoreDataModelFacts {
        var facts = CoreDataModelFacts()
        facts.versionIdentifier = root.attribute("userDefinedModelVersionIdentifier") ?? ""
        for entity in root.children(named: "entity") {
            guard let name = entity.attribute("name") else { continue }
            for attribute in entity.children(named: "attribute")
            where attribute.attribute("allowsExternalBinaryDataStorage") == "YES" {
                if let property = attribute.attribute("name") { facts.externalBinary.insert("\(name).\(property)") }
            }
        }
        return facts
    }
}
