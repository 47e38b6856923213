/// Finds the two versions of a bundle an Xcode mapping model maps between.
///
/// The paths Xcode records (`sourcemodelpath`, `destinationmodelpath`) were
/// written on the author's machine and are often absolute or stale, so only
/// their last two parts count:
///
/// 1. **By name.** When the path's `Name.xcdatamodeld` part is the bundle's
///    name (or the path has none), the version whose folder the path ends
///    with (`Name 2.xcdatamodel`) is the one.
/// 2. **By snapshot.** Otherwise — the name is missing, stale or names
///    another bundle — the model snapshot the file carries
///    (`sourcemodeldata`, `destinationmodeldata`) is compared with every
///    version: the one version whose entities have exactly the snapshot's
///    entity and property names is the one. None, or several, is an error
///    that says so (with the closest version and how it differs).
///
/// A file belongs to a bundle when a path names the bundle, or when both
/// snapshots match versions of it.
package enum XcodeVersionMatcher {
    /// How a version was found.
    enum Method: String, Sendable, Hashable {
        case name = "by name"
        case snapshot = "by model snapshot"
    }

    /// The versions of a mapping model, and how each was found.
    package struct Match: Sendable {
        package var source: ModelVersion
        package var destination: ModelVersion
        var sourceMethod: Method
        var destinationMethod: Method
    }

    /// Whether the mapping model is for this bundle (see the rule above).
    package static func belongs(_ model: XcodeMappingModel, to bundle: ModelBundle) -> Bool {
        if model.source.bundleName == bundle.name || model.destination.bundleName == bundle.name { return true }
        guard case .found? = try? bySnapshot(model.source, in: bundle),
            case .found? = try? bySnapshot(model.destination, in: bundle)
        else {
            return false
        }
        return true
    }

    /// The two versions; nil with an error diagnostic when either cannot be found. With
    /// `checkingSnapshots`, a version found by name whose snapshot differs gets a warning.
    static func match(_ model: XcodeMappingModel, in bundle: ModelBundle, checkingSnapshots: Bool = false) -> (
        Match?, [Diagnostic]
    ) {
        var diagnostics: [Diagnostic] = []
        let source = side(
            model.source, "source", of: model, in: bundle, checkingSnapshots: checkingSnapshots,
            diagnostics: &diagnostics)
        let destination = side(
            model.destination, "destination", of: model, in: bundle, checkingSnapshots: checkingSnapshots,
            diagnostics: &diagnostics)
        guard let source, let destination else { return (nil, diagnostics) }
        return (
            Match(
                source: source.0, destination: destination.0, sourceMethod: source.1, destinationMethod: destination.1),
            diagnostics
        )
    }

    private static func side(
        _ side: XcodeMappingModel.Model, _ role: String, of model: XcodeMappingModel, in bundle: ModelBundle,
        checkingSnapshots: Bool,
        diagnostics: inout [Diagnostic]
    ) -> (ModelVersion, Method)? {
        let location = side.path?.start ?? side.snapshot?.location ?? model.location
        if let name = side.versionName, side.bundleName == nil || side.bundleName == bundle.name,
            let version = bundle.version(named: name)
        {
            if checkingSnapshots, case .some(let snapshot) = try? self.snapshot(side),
                snapshot != ModelSnapshot(version: version)
            {
                diagnostics.append(
                    Diagnostic(
                        .warning, rule: .xcodeMappingSnapshotDiffers,
                        message:
                            "the \(role) model path names version '\(name)', but the model the mapping was made with differs from it: '\(name)' \(snapshot.differences(from: ModelSnapshot(version: version))); check the mapping in Xcode",
                        at: location))
            }
            return (version, .name)
        }
        let named =
            side.path.map { "its \(role) model path '\($0.value)' names no version of '\(bundle.name)'" }
            ?? "it records no \(role) model path"
        do {
            switch try bySnapshot(side, in: bundle) {
            case .found(let version):
                return (version, .snapshot)
            case .several(let versions):
                diagnostics.append(
                    unknownVersion(
                        "\(named), and its \(role) model snapshot matches several versions equally (\(versions.map { "'\($0.name)'" }.joined(separator: ", "))); open the mapping model in Xcode and choose the \(role) version again",
                        at: location))
            case .none(let closest, let differences):
                let hint = closest.map { "; the closest is '\($0)', which \(differences)" } ?? ""
                diagnostics.append(
                    unknownVersion(
                        "\(named), and its \(role) model snapshot matches no version of '\(bundle.name)'\(hint)",
                        at: location))
            }
        } catch {
            diagnostics.append(
                unknownVersion(
                    "\(named), and its \(role) model snapshot cannot be read: \(error.message)", at: location))
        }
        return nil
    }

    private enum SnapshotMatch {
        case found(ModelVersion)
        case several([ModelVersion])
        case none(closest: String?, differences: String)
    }

    private static func snapshot(_ side: XcodeMappingModel.Model) throws(KeyedArchive.Failure) -> ModelSnapshot {
        guard let data = side.snapshot else { throw KeyedArchive.Failure(message: "the file has no model snapshot") }
        return try ModelSnapshot(archive: try XcodeMappingReader.bytes(ofBase64: data.value))
    }

    private static func bySnapshot(_ side: XcodeMappingModel.Model, in bundle: ModelBundle) throws(KeyedArchive.Failure)
        -> SnapshotMatch
    {
        let snapshot = try snapshot(side)
        let candidates = bundle.versions.map { ($0, ModelSnapshot(version: $0)) }
        let exact = candidates.filter { $0.1 == snapshot }.map(\.0)
        if exact.count == 1 { return .found(exact[0]) }
        if exact.count > 1 { return .several(exact) }
        let closest = candidates.max { snapshot.similarity(to: $0.1) < snapshot.similarity(to: $1.1) }
        return .none(closest: closest?.0.name, differences: closest.map { snapshot.differences(from: $0.1) } ?? "")
    }

    private static func unknownVersion(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .error, rule: .xcodeMappingUnknownVersion, message: "no version matches: " + message, at: location)
    }
}
