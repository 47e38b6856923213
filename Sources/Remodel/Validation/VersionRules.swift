/// Rules about a bundle's versions taken together.
enum VersionRules {
    static func check(_ bundle: ModelBundle, into list: inout DiagnosticList) {
        var firstByHash: [String: ModelVersion] = [:]
        for version in bundle.versions {
            let hash = version.modelHash
            guard let earlier = firstByHash[hash] else {
                firstByHash[hash] = version
                continue
            }
            list.report(
                .identicalVersionHash,
                "version '\(version.name)' has the same version hashes as version '\(earlier.name)', so a store's version cannot be told from its hashes; if the two versions should differ in storage, set a Hash Modifier (versionHashModifier) on the entity that changed, else remove one of them",
                at: version.source.location)
        }
    }
}
