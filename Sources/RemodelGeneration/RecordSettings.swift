internal import Foundation
package import RemodelModel

/// What a package tells the records plugins about its models: `remodel-records.json` in a target's folder, one
/// entry per model that needs more than the defaults, by the model's path from that folder.
///
/// ```json
/// {
///     "Shop.xcdatamodeld": { "configuration": "Local", "access": "public" },
///     "Models/Library.xcdatamodeld": { "version": "Library 2" }
/// }
/// ```
///
/// `version` (default: the current one), `configuration` (default: the whole model) and `access` (`internal`, the
/// default, or `public`) are `remodel generate`'s options of the same names. A mistake is an error at its line and
/// column: a key that names no model, a setting the file does not know, a value of the wrong kind.
package struct RecordSettings: Sendable, Equatable {
    /// The settings of one model; `nil` leaves a setting at its default.
    package struct Model: Sendable, Equatable {
        package var version: String?
        package var configuration: String?
        package var access: RecordGenerator.Access?

        package init(version: String? = nil, configuration: String? = nil, access: RecordGenerator.Access? = nil) {
            self.version = version
            self.configuration = configuration
            self.access = access
        }
    }

    /// The file's name, looked for in a target's folder.
    package static let fileName = "remodel-records.json"

    /// The settings each model has, by the model folder's resolved path.
    private var models: [String: Model]

    /// Reads the settings at `path`, checking each key against the models in the file's folder.
    package init(contentsOf path: String) throws(RemodelError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var parser = try JSONPullParser(path: path)
        models = [:]
        try parser.beginObject()
        while true {
            guard let key = try parser.nextKey() else { break }
            let keyLocation = parser.keyLocation
            let model = folder.appendingPathComponent(key)
            guard ["xcdatamodeld", "xcdatamodel"].contains(model.pathExtension),
                FileManager.default.fileExists(atPath: model.path)
            else {
                throw RemodelError(
                    .invalidValue,
                    "\"\(key)\" is not a model in \(folder.path): a key is the path of an .xcdatamodeld or .xcdatamodel from this file's folder, such as \"Library.xcdatamodeld\"",
                    location: keyLocation)
            }
            let resolved = Self.resolved(model.path)
            guard models[resolved] == nil else {
                throw RemodelError(.invalidValue, "\"\(key)\" is given twice", location: keyLocation)
            }
            models[resolved] = try Self.model(from: &parser)
        }
        try parser.expectEnd()
    }

    /// The settings of the model at `path` (the path its tool is given), or the defaults.
    package func model(at path: String) -> Model {
        models[Self.resolved(path)] ?? Model()
    }

    /// One model's object of settings.
    private static func model(from parser: inout JSONPullParser) throws(RemodelError) -> Model {
        var model = Model()
        try parser.beginObject()
        while true {
            guard let key = try parser.nextKey() else { break }
            let keyLocation = parser.keyLocation
            let valueLocation = try parser.nextValueLocation()
            guard case .string(let value) = try parser.readValue() else {
                throw RemodelError(.invalidValue, "\"\(key)\" takes a string", location: valueLocation)
            }
            switch key {
            case "version": model.version = value
            case "configuration": model.configuration = value
            case "access":
                guard let access = RecordGenerator.Access(rawValue: value) else {
                    throw RemodelError(
                        .invalidValue, "\"access\" is \"internal\" or \"public\", not \"\(value)\"",
                        location: valueLocation)
                }
                model.access = access
            default:
                throw RemodelError(
                    .invalidValue,
                    "unknown setting \"\(key)\": a model's settings are \"version\", \"configuration\" and \"access\"",
                    location: keyLocation)
            }
        }
        return model
    }

    /// A path with `.`, `..` and symbolic links resolved, so that two spellings of one folder compare equal.
    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
