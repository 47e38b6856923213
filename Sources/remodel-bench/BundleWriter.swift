import Foundation

/// Writes a generated model bundle as Xcode does: a `Name N.xcdatamodel/contents` folder per version, in
/// order, and `.xccurrentversion` naming the last one current.
enum BundleWriter {
    /// Writes `versions` (name and `contents` XML, in order) into the bundle at `path`; returns the bytes of XML.
    static func write(_ versions: [(name: String, xml: String)], to path: String) throws -> Int {
        var bytes = 0
        for version in versions {
            let versionFolder = "\(path)/\(version.name).xcdatamodel"
            try FileManager.default.createDirectory(atPath: versionFolder, withIntermediateDirectories: true)
            let data = Data(version.xml.utf8)
            try data.write(to: URL(fileURLWithPath: "\(versionFolder)/contents"))
            bytes += data.count
        }
        let current = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>\(versions.last?.name ?? "").xcdatamodel</string>
            </dict>
            </plist>

            """
        try Data(current.utf8).write(to: URL(fileURLWithPath: "\(path)/.xccurrentversion"))
        return bytes
    }
}
