internal import Foundation

/// Hand-written data per version in a folder: `<version>.json`, `<version>.sqlite`, or any such files in a
/// folder named after the version.
enum MigrationFixtures {
    static let extensions: Set = ["json", "sqlite"]

    /// Fixture paths by version name, each list sorted.
    static func find(in folder: String?) -> [String: [String]] {
        guard let folder, let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [:] }
        var found: [String: [String]] = [:]
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = folder + "/" + entry
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                found[entry, default: []] += files.sorted().filter { isFixture($0) }.map { path + "/" + $0 }
            } else if isFixture(entry) {
                found[(entry as NSString).deletingPathExtension, default: []].append(path)
            }
        }
        return found.filter { !$0.value.isEmpty }
    }

    private static func isFixture(_ name: String) -> Bool {
        !name.hasPrefix(".") && extensions.contains((name as NSString).pathExtension)
    }
}
