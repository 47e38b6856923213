import Foundation

/// Writes the `longHistory` scenario's bundle, `BenchHistory.xcdatamodeld`: the ``HistoryChanges``
/// versions as Xcode's XML, named `BenchHistory`, `BenchHistory 2`, … `BenchHistory 96` (natural order),
/// the last one current.
enum HistoryBundle {
    static let name = "BenchHistory"

    static func path(in folder: String) -> String { "\(folder)/\(name).xcdatamodeld" }

    static func versionName(_ number: Int) -> String {
        number == 1 ? name : "\(name) \(number)"
    }

    /// The bundle in `folder`, written there unless a scenario of this run wrote it already (`log` says what was
    /// written).
    static func once(in folder: String, log: (String) -> Void) throws -> String {
        let bundle = path(in: folder)
        if !FileManager.default.fileExists(atPath: bundle) {
            let start = Measure.now()
            let bytes = try write(in: folder)
            log(
                "the history bundle: \(HistoryChanges.versions) versions, \(bytes) bytes of XML, written in \(fixed(Measure.now() - start, 2)) s"
            )
        }
        return bundle
    }

    /// Writes the bundle in `folder`, replacing one already there; returns the bytes of XML written.
    static func write(in folder: String) throws -> Int {
        let bundle = path(in: folder)
        try? FileManager.default.removeItem(atPath: bundle)
        let versions = HistoryChanges.all.enumerated().map { offset, model in (versionName(offset + 1), model.xml) }
        return try BundleWriter.write(versions, to: bundle)
    }
}
