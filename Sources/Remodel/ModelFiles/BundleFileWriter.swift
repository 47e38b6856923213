import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a model bundle as Xcode lays it out: `Name.xcdatamodeld/` with a folder `Version.xcdatamodel/`
/// holding `contents` per version, and `.xccurrentversion` naming the current one.
///
/// The bundle is written in a hidden folder beside `path` (`.NAME.remodel-PID`) and renamed into place
/// when complete, so a failure leaves nothing at `path`; a folder or file already at `path` is never
/// replaced. A folder cannot be made without a name, so a writer killed before its rename leaves its
/// hidden folder: the next write of that bundle removes it.
///
/// For example:
/// ```swift
/// try BundleFileWriter.write(versions: [("Notes", xml)], current: "Notes", to: "Notes.xcdatamodeld")
/// ```
package enum BundleFileWriter {
    /// The fault point just before the rename (`REMODEL_FAULT_POINT`): the bundle is complete in its
    /// hidden folder.
    static let beforeRename = "bundle-before-rename"

    /// Writes the versions (name and `contents` text, in order) and names `current` current.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/io`` when something is at `path` or a file
    ///   cannot be written.
    package static func write(versions: [(name: String, contents: String)], current: String, to path: String)
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
        removeLeftovers(of: url)
        do {
            try? manager.removeItem(at: folder)
            for version in versions {
                let versionFolder = folder.appendingPathComponent(version.name + ".xcdatamodel")
                try manager.createDirectory(at: versionFolder, withIntermediateDirectories: true)
                try Data(version.contents.utf8).write(to: versionFolder.appendingPathComponent("contents"))
            }
            try Data(currentVersionPlist(current).utf8).write(to: folder.appendingPathComponent(".xccurrentversion"))
            FaultInjection.reach(beforeRename)
            try manager.moveItem(at: folder, to: url)
        } catch {
            try? manager.removeItem(at: folder)
            throw RemodelError(
                .io, "the model bundle could not be written: \(error.localizedDescription)", path: path, cause: error)
        }
    }

    /// Removes the hidden folders that writers of the bundle at `url` left when they were killed before
    /// their rename: `.NAME.remodel-PID` where no process PID runs (a live writer's folder is its own).
    static func removeLeftovers(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).remodel-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0, kill(pid, 0) != 0, errno == ESRCH else {
                continue
            }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
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
