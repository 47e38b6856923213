import Foundation
import PackagePlugin

/// Generates a target's GRDB records at build time from the Core Data models in its folder, as Xcode's
/// class-definition codegen does: one file per `.xcdatamodeld` bundle (or lone `.xcdatamodel`), regenerated only
/// when a file of the model changes (the command declares the model's files as inputs and the one Swift file as
/// output, so an unchanged model costs the build nothing).
///
/// The target depends on GRDB and names the plugin:
///
/// ```swift
/// .target(
///     name: "LibraryApp",
///     dependencies: [.product(name: "GRDB", package: "GRDB.swift"), .product(name: "RemodelGRDB", package: "Remodel")],
///     resources: [.copy("Library.xcdatamodeld")],
///     plugins: [.plugin(name: "RemodelRecords", package: "Remodel")]
/// )
/// ```
///
/// A model that needs another version, a configuration or public records says so in `remodel-records.json` in the
/// target's folder (`{"Shop.xcdatamodeld": {"configuration": "Local", "access": "public"}}`; docs/TYPED-ACCESS.md),
/// an input of every command, so that changing it regenerates the records.
@main
struct RemodelRecords: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "RemodelGenerate")
        let settings = target.directoryURL.appendingPathComponent("remodel-records.json")
        let hasSettings = FileManager.default.fileExists(atPath: settings.path)
        return ModelFolders.models(under: target.directoryURL).map { model in
            let name = model.deletingPathExtension().lastPathComponent + "Records.swift"
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(name)
            return .buildCommand(
                displayName: "Generating records for \(model.lastPathComponent)",
                executable: tool.url,
                arguments: [model.path, "--output", context.pluginWorkDirectoryURL.path, "--file", name]
                    + (hasSettings ? ["--settings", settings.path] : []),
                inputFiles: ModelFolders.files(of: model) + (hasSettings ? [settings] : []),
                outputFiles: [output])
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
        for case let url as URL in walker {
            switch url.pathExtension {
            case "xcdatamodeld":
                found.append(url)
                walker.skipDescendants()
            case "xcdatamodel":
                found.append(url)
                walker.skipDescendants()
            default:
                continue
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The files a model's generated code depends on: `.xccurrentversion` and every version's `contents`.
    static func files(of model: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: model, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let url as URL in walker
        where url.lastPathComponent == "contents" || url.lastPathComponent == ".xccurrentversion" {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
