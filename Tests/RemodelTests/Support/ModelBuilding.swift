import Testing

@testable import Remodel
@testable import RemodelModel

/// Builds a model version from the entity elements of a `contents` file.
func makeVersion(_ name: String, _ entities: String, file: String = "contents") throws -> ModelVersion {
    let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(entities)
        </model>
        """
    let (version, diagnostics) = readOnBothRoads(Array(xml.utf8), file: file, versionName: name)
    guard let version, diagnostics.isEmpty else {
        throw RemodelError(.invalidModel, "test model did not read: \(diagnostics)")
    }
    return version
}

/// Reads a model file's bytes as `ModelBundle` does, and records an issue when libxml2's tree reads them otherwise
/// (another version, other entity texts, other diagnostics or positions): every model a test writes holds the
/// tag reader to the road every file took before it.
func readOnBothRoads(_ bytes: [UInt8], file: String, versionName: String) -> (ModelVersion?, [Diagnostic]) {
    let read = ModelFileReader.read(bytes: bytes, path: file, versionName: versionName)
    let tree = ModelFileReader.readThroughTree(bytes: bytes, path: file, versionName: versionName)
    if read.1 != tree.1 || read.0 != tree.0 || read.0?.entityTexts != tree.0?.entityTexts {
        Issue.record("the tag reader and libxml2's tree read \(file) otherwise: \(read.1) against \(tree.1)")
    }
    return read
}

/// Builds a bundle from versions in order.
func makeBundle(_ name: String, _ versions: ModelVersion...) -> ModelBundle {
    ModelBundle(name: name, versions: versions)
}
