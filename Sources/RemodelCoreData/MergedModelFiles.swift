import Remodel

/// Model files that merge several models into one, as `NSManagedObjectModel.mergedModel(from:)` does
/// for an app that loads several `.momd` files into one store: one version per combination of the
/// models' versions, each holding every `<entity>` (and `<fetchRequest>`, `<configuration>`) of its
/// versions' files, unchanged. An entity name two models define is refused, as Core Data refuses it.
enum MergedModelFiles {
    /// The merged bundle's name (`Library+Tags`), its versions (`Library 2 + Tags`, with their
    /// `contents`) and the current one (the combination of current versions).
    /// - Throws: ``RemodelError`` naming the entity two models define, or a version that cannot be read.
    static func versions(of bundles: [ModelBundle], path: String) throws(RemodelError) -> (
        name: String, versions: [(name: String, contents: String)], current: String
    ) {
        var combinations: [[ModelVersion]] = [[]]
        for bundle in bundles {
            var next: [[ModelVersion]] = []
            for name in bundle.versionNames {
                let version = try bundle.loadVersion(named: name)
                for combination in combinations { next.append(combination + [version]) }
            }
            combinations = next
            guard combinations.count <= ResolvedCoreDataModel.maximumMergedVersions else {
                throw RemodelError(
                    .invalidModel,
                    "the models given with --model make more than \(ResolvedCoreDataModel.maximumMergedVersions) combinations of versions to try; give bundles with only the versions the app may have written the store with",
                    path: path)
            }
        }
        var versions: [(name: String, contents: String)] = []
        for combination in combinations {
            versions.append((combination.map(\.name).joined(separator: " + "), try merged(combination, bundles)))
        }
        let current = bundles.map(\.currentVersionName).joined(separator: " + ")
        return (bundles.map(\.name).joined(separator: "+"), versions, current)
    }

    /// One merged `contents` file.
    private static func merged(_ versions: [ModelVersion], _ bundles: [ModelBundle]) throws(RemodelError) -> String {
        var children: [WrittenElement] = []
        var owner: [String: String] = [:]
        var attributes: [WrittenElement.Attribute] = []
        var identifier = ""
        for (version, bundle) in zip(versions, bundles) {
            let root: XMLNode
            do {
                root = try XMLDocumentReader.read(path: version.path)
            } catch {
                throw RemodelError(.invalidModel, error.message, location: error.location)
            }
            if attributes.isEmpty { attributes = WrittenElement(root).attributes }
            if identifier.isEmpty { identifier = root.attribute("userDefinedModelVersionIdentifier") ?? "" }
            for child in root.children where ["entity", "fetchRequest", "configuration"].contains(child.name) {
                if child.name == "entity", let name = child.attribute("name") {
                    if let first = owner[name] {
                        throw RemodelError(
                            .invalidModel,
                            "models \"\(first)\" and \"\(bundle.name)\" both define entity \(name), so they cannot be merged (Core Data refuses such a merge too); give the models the app merged",
                            location: child.location, entity: name)
                    }
                    owner[name] = bundle.name
                }
                children.append(WrittenElement(child))
            }
        }
        attributes.removeAll { $0.name == "userDefinedModelVersionIdentifier" }
        attributes.append(WrittenElement.Attribute(name: "userDefinedModelVersionIdentifier", value: identifier))
        var model = WrittenElement("model", children: children)
        model.attributes = attributes
        return model.document
    }
}
