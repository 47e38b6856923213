import Foundation
import Remodel

/// Finds the models and mapping files at and under the paths given to validation.
struct ModelSearch {
    /// A model to read: its path and how many versions it holds.
    struct Model {
        var path: String
        var versionCount: Int
    }

    private(set) var models: [Model] = []
    private(set) var mappingFiles: [String] = []
    private var seen: Set<String> = []
    private let fileManager = FileManager.default

    /// Adds what `path` holds; a path that does not exist is an error.
    mutating func add(_ path: String) throws(RemodelError) {
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RemodelError(
                .io,
                "no such file or folder; give a .xcdatamodeld bundle, a .xcdatamodel folder, a contents file or a folder holding them",
                path: path)
        }
        if !isDirectory.boolValue {
            if path.hasSuffix(".xml") {
                addMapping(path)
            } else {
                addModel(path, versionCount: 1)
            }
            return
        }
        visit(folder: path)
    }

    private mutating func visit(folder path: String) {
        if path.hasSuffix(".xcdatamodeld") {
            let versions = entries(of: path).filter { $0.hasSuffix(".xcdatamodel") }.count
            addModel(path, versionCount: versions)
            return
        }
        if path.hasSuffix(".xcdatamodel") {
            addModel(path, versionCount: 1)
            return
        }
        guard seen.insert(canonical(path)).inserted else { return }
        for name in entries(of: path) where !name.hasPrefix(".") {
            let child = path == "/" ? "/\(name)" : "\(path)/\(name)"
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: child, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                visit(folder: child)
            } else if name.hasSuffix(".xml") {
                addMapping(child)
            }
        }
    }

    private mutating func addModel(_ path: String, versionCount: Int) {
        guard seen.insert(canonical(path)).inserted else { return }
        models.append(Model(path: path, versionCount: versionCount))
    }

    private mutating func addMapping(_ path: String) {
        guard seen.insert(canonical(path)).inserted else { return }
        mappingFiles.append(path)
    }

    private func entries(of folder: String) -> [String] {
        ((try? fileManager.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    private func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
