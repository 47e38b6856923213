import Foundation

/// Writes a model bundle as Xcode lays it out: `Name.xcdatamodeld/` with a folder `Version.xcdatamodel/`
/// holding `contents` per version, and `.xccurrentversion` naming the current one.
///
/// The bundle is written in a hidden folder beside `path` and renamed into place when complete, so a
/// failure leaves nothing at `path`; a folder or file already at `path` is never replaced.
///
/// For example:
/// ```swift
/// try BundleFileWriter.write(versions: [("Notes", xml)], current: "Notes", to: "Notes.xcdatamodeld")
/// ```
enum BundleFileWriter {
    /// Writes the versions (name and `contents` text, in order) and names `current` current.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/io`` when something is at `path` or a file
    ///   cannot be written.
    static func write(versions: [(name: String, contents: String)], current: String, to path: String)
        throws(RemodelError)
    {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: path) else {
            throw RemodelError(
                .io, "something is already at this path; Remodel never replaces it: remove it, or choose another path",
                path: path)
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).remodel-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try? manager.removeItem(at: folder)
            for version in versions {
                let versionFolder = folder.appendingPathComponent(version.name + ".xcdatamodel")
                try manager.createDirectory(at: versionFolder, withIntermediateDirectories: true)
                try Data(version.contents.utf8).write(to: versionFolder.appendingPathComponent("contents"))
            }
            try Data(currentVersionPlist(current).utf8).write(to: folder.appendingPathComponent(".xccurrentversion"))
            try manager.moveItem(at: folder, to: url)
        } catch {
            try? manager.removeItem(at: folder)
            throw RemodelError(
                .io, "the model bundle could not be written: \(error.localizedDescription)", path: path, cause: error)
        }
    }

    /// `.xccurrentversion`: an XML property list whose `_XCCurrentVersionName` names the version folder.
    static func currentVersionPlist(_ version: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(WrittenElement.escape(version)).xcdatamodel</string>
        </dict>
        </plist>

        """
    }
}
