import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-records [--target T ...] [--access public|internal]
/// [--output FOLDER]`: writes the GRDB records of every Core Data model in each target's folder into
/// `<target>/<FOLDER>/<Model>/` (default FOLDER: `Generated`), for a package that commits its generated code.
/// Run it again when a model changes; it replaces the files it generated there and nothing else. A target's
/// `remodel-records.json` gives a model's version, configuration and access, as for the `RemodelRecords` plugin;
/// `--access` given here wins over it.
@main
struct GenerateRecords: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let access = extractor.extractOption(named: "access").last
        let folder = extractor.extractOption(named: "output").last ?? "Generated"
        let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
        let tool = try context.tool(named: "RemodelGenerate")
        for case let target as SourceModuleTarget in targets {
            let settings = target.directoryURL.appendingPathComponent("remodel-records.json")
            for model in ModelFolders.models(under: target.directoryURL) {
                let output = target.directoryURL.appendingPathComponent(folder)
                    .appendingPathComponent(model.deletingPathExtension().lastPathComponent)
                let process = Process()
                process.executableURL = tool.url
                process.arguments =
                    [model.path, "--output", output.path] + (access.map { ["--access", $0] } ?? [])
                    + (FileManager.default.fileExists(atPath: settings.path) ? ["--settings", settings.path] : [])
                try process.run()
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    Diagnostics.error("remodel-generate failed for \(model.path)")
                    return
                }
                print("Generated the records of \(model.lastPathComponent) into \(output.path)")
            }
        }
    }
}

/// The model files of a folder.
enum ModelFolders {
    /// Every `.xcdatamodeld` bundle under `folder`, and every `.xcdatamodel` folder not inside one, sorted.
    static func models(under folder: URL) -> [URL] {
        var found: [URL] = []
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return [] }
        for case let url as URL in walker where ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) {
            found.append(url)
            walker.skipDescendants()
        }
        return found.sorted { $0.path < $1.path }
    }
}
