import Foundation

/// Writes the `longHistory` scenario's bundle, `BenchHistory.xcdatamodeld`: the ``HistoryChanges``
/// versions as Xcode's XML, named `BenchHistory`, `BenchHistory 2`, … `BenchHistory 100` (natural order),
/// the last one current.
enum HistoryBundle {
    static let name = "BenchHistory"

    static func path(in folder: String) -> String { "\(folder)/\(name).xcdatamodeld" }

    static func versionName(_ number: Int) -> String {
        number == 1 ? name : "\(name) \(number)"
    }

    /// Writes the bundle in `folder`, replacing one already there; returns the bytes of XML written.
    static func write(in folder: String) throws -> Int {
        let bundle = path(in: folder)
        try? FileManager.default.removeItem(atPath: bundle)
        var bytes = 0
        for (offset, model) in HistoryChanges.all.enumerated() {
            let versionFolder = "\(bundle)/\(versionName(offset + 1)).xcdatamodel"
            try FileManager.default.createDirectory(atPath: versionFolder, withIntermediateDirectories: true)
            let data = Data(model.xml.utf8)
            try data.write(to: URL(fileURLWithPath: "\(versionFolder)/contents"))
            bytes += data.count
        }
        let current = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>\(versionName(HistoryChanges.versions)).xcdatamodel</string>
            </dict>
            </plist>

            """
        try Data(current.utf8).write(to: URL(fileURLWithPath: "\(bundle)/.xccurrentversion"))
        return bytes
    }
}
