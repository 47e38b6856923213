import Foundation

@testable import Remodel
@testable import RemodelModel

/// Writes a `.xcdatamodeld` bundle as Xcode lays it out, for tests that read models from disk.
enum BundleWriting {
    /// Writes `<folder>/<name>.xcdatamodeld` with one version folder per `(version, entity elements)`,
    /// `.xccurrentversion` naming `current` (default: the last), and `order` as `.remodel-version-order`.
    @discardableResult
    static func write(
        _ name: String, in folder: String, versions: [(String, String)], current: String? = nil, order: String? = nil
    ) throws -> String {
        let bundle = "\(folder)/\(name).xcdatamodeld"
        for (version, entities) in versions {
            let versionFolder = "\(bundle)/\(version).xcdatamodel"
            try FileManager.default.createDirectory(atPath: versionFolder, withIntermediateDirectories: true)
            let xml = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                \(entities)
                </model>
                """
            try Data(xml.utf8).write(to: URL(fileURLWithPath: versionFolder + "/contents"))
        }
        let currentName = current ?? versions[versions.count - 1].0
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(currentName).xcdatamodel</string></dict></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: bundle + "/.xccurrentversion"))
        if let order {
            try Data(order.utf8).write(to: URL(fileURLWithPath: bundle + "/" + ModelReader.versionOrderFileName))
        }
        return bundle
    }
}
