/// Rules about a bundle's versions taken together.
enum VersionRules {
    static func check(_ bundle: ModelBundle, into list: inout DiagnosticList) {
        checkCurrentIsLast(bundle, into: &list)
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

    /// Versions after the current one are usually older ones whose names sort last ("Kiwix" after "1.8").
    private static func checkCurrentIsLast(_ bundle: ModelBundle, into list: inout DiagnosticList) {
        guard let declared = bundle.declaredCurrentVersionName, let index = bundle.index(ofVersion: declared),
            index < bundle.versions.count - 1
        else { return }
        let later = bundle.versions[(index + 1)...].map { "'\($0.name)'" }.joined(separator: ", ")
        list.report(
            .currentVersionNotLast,
            "the current version '\(declared)' is followed in migration order (natural sort of names) by \(later); if those are older versions, list every version oldest first in \(ModelBundle.versionOrderFileName) in the bundle",
            at: bundle.currentVersion.source.location)
    }
}
