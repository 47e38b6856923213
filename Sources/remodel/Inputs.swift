import ArgumentParser
import Foundation
import Remodel

/// The checks of what a command line names, made before anything runs: a file or folder that is not there or
/// cannot be read, or a version the model lacks, prints one sentence and exits with status 2 (could not start).
enum Inputs {
    /// Exits with status 2 unless `path` is a file this process can read; `what` names it (`JSON file`).
    static func requireFile(_ path: String, _ what: String) throws {
        try require(path, what, folder: false)
    }

    /// Exits with status 2 unless `path` is a folder this process can read; `what` names it (`mappings folder`).
    static func requireFolder(_ path: String, _ what: String) throws {
        try require(path, what, folder: true)
    }

    /// Exits with status 2, naming the model's versions, unless the model has a version `name` (nil: none given).
    static func requireVersion(_ name: String?, in bundle: ModelBundle) throws {
        guard let name, bundle.index(ofVersion: name) == nil else { return }
        printFailure(bundle.unknownVersion(name, code: .invalidModel))
        throw ExitCode(ExitStatus.couldNotStart)
    }

    /// Exits with status 2 unless the model has configuration `name` (Xcode's undeclared `Default` counts) in
    /// version `version`, or in some version when none is given (a Core Data store's version is found later).
    static func requireConfiguration(_ name: String?, in bundle: ModelBundle, version: String?) throws {
        guard let name else { return }
        var lacking: ModelVersion?
        // Newest first: a store to import is most often at a recent version, so the search stops early.
        for versionName in (version.map { [$0] } ?? bundle.versionNames.reversed()) {
            guard let read = try? bundle.loadVersion(named: versionName) else { continue }
            if read.configurations.contains(where: { $0.name == name }) || read.isWholeVersion(atConfiguration: name) {
                return
            }
            lacking = lacking ?? read
        }
        guard let lacking else { return }
        printFailure(RemodelError(.invalidModel, lacking.unknownConfiguration(name), path: bundle.path))
        throw ExitCode(ExitStatus.couldNotStart)
    }

    /// The folder of mapping files: the one given, which must be there (status 2 otherwise: a folder that is not
    /// there is never silently taken for no mapping files), else `Mappings` when it exists.
    static func mappingsFolder(_ given: String?) throws -> String? {
        guard let given else { return defaultMappingsDirectory() }
        try requireFolder(given, "mappings folder")
        return given
    }

    private static func require(_ path: String, _ what: String, folder: Bool) throws {
        var isFolder: ObjCBool = false
        let problem: String?
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            problem = "there is no \(what) at this path"
        } else if isFolder.boolValue != folder {
            problem = "this is a \(isFolder.boolValue ? "folder" : "file"), not a \(what)"
        } else if access(path, folder ? R_OK | X_OK : R_OK) != 0 {
            problem = "the \(what) cannot be read: \(String(cString: strerror(errno)))"
        } else {
            problem = nil
        }
        guard let problem else { return }
        printError("\(path): \(problem)")
        throw ExitCode(ExitStatus.couldNotStart)
    }
}

/// `Mappings` in the current folder, when it exists.
func defaultMappingsDirectory() -> String? {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: "Mappings", isDirectory: &isDirectory) && isDirectory.boolValue
        ? "Mappings" : nil
}
