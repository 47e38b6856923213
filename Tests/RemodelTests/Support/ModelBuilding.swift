@testable import Remodel

/// Builds a model version from the entity elements of a `contents` file.
func makeVersion(_ name: String, _ entities: String, file: String = "contents") throws -> ModelVersion {
    let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(entities)
        </model>
        """
    let root = try XMLDocumentReader.parse(Array(xml.utf8), file: file)
    let (version, diagnostics) = ModelFileReader.version(from: root, path: file, versionName: name)
    guard let version, diagnostics.isEmpty else {
        throw RemodelError(.invalidModel, "test model did not read: \(diagnostics)")
    }
    return version
}

/// Builds a bundle from versions in order.
func makeBundle(_ name: String, _ versions: ModelVersion...) -> ModelBundle {
    ModelBundle(name: name, versions: versions)
}
