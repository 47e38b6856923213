import Remodel

/// The model a Core Data store carries in `Z_MODELCACHE`, read and turned into model files Remodel
/// validates and reads like any other (docs/CORE-DATA-STORES.md, "The store's own model").
enum CoreDataModelCache {
    /// Reads and decodes the store's compiled model.
    /// - Throws: ``RemodelError`` naming the store: ``RemodelError/Code/invalidModel`` when the store has
    ///   no `Z_MODELCACHE` (saying to pass `--model`) or it holds a class Remodel does not read (named),
    ///   ``RemodelError/Code/notAStore`` when its bytes cannot be read.
    static func read(from connection: SQLiteConnection, schema: CoreDataSchema, path: String) throws(RemodelError)
        -> CompiledModel
    {
        let table = CoreDataName.modelCacheTable
        guard schema.table(table) != nil,
            case .blob(let bytes)? = try connection.scalar(
                "SELECT \(CoreDataName.modelCacheContent) FROM \(table) WHERE \(CoreDataName.modelCacheContent) IS NOT NULL LIMIT 1"
            )
        else {
            throw RemodelError(
                .invalidModel,
                "the Core Data store keeps no compiled model (no \(table) row; Core Data writes one from iOS 11 and macOS 10.13 on), so Remodel cannot tell its model: pass the app's model with --model",
                path: path)
        }
        do {
            return try CompiledModel(compressed: Array(bytes))
        } catch  where error.unreadClass != nil {
            throw RemodelError(
                .invalidModel,
                "the compiled model in the Core Data store's \(table) holds a class Remodel does not read: \(error.message) (the bytes are fine); pass the app's model with --model",
                path: path)
        } catch {
            throw RemodelError(
                .notAStore,
                "the compiled model in the Core Data store's \(table) is damaged (\(error.message)); pass the app's model with --model, or copy the store again from the device",
                path: path)
        }
    }

    /// The model's `contents` file, checked: it must read and validate without errors, since a model with
    /// errors is never used.
    /// - Throws: ``RemodelError`` with ``RemodelError/Code/invalidModel`` naming the store and the first error.
    static func contents(of model: CompiledModel, name: String, path: String) throws(RemodelError) -> String {
        try checked(model, name: name, path: path).contents
    }

    /// The model's `contents` file, checked as ``contents(of:name:path:)`` checks it, with the version read
    /// from it and the file's root element.
    static func checked(_ model: CompiledModel, name: String, path: String) throws(RemodelError) -> (
        contents: String, version: ModelVersion, root: XMLNode
    ) {
        let contents = model.contents
        let file = "\(name).xcdatamodel/contents"
        var diagnostics: [Diagnostic]
        var read: (version: ModelVersion, root: XMLNode)?
        do {
            let root = try XMLDocumentReader.parse(Array(contents.utf8), file: file)
            let (version, reading) = ModelFileReader.version(from: root, path: file, versionName: name)
            diagnostics = reading
            if let version {
                diagnostics += ModelValidator.validate(ModelBundle(name: name, path: file, versions: [version]))
                read = (version, root)
            }
        } catch {
            diagnostics = [Diagnostic(.error, rule: "malformed-xml", message: error.message, at: error.location)]
        }
        if let error = diagnostics.first(where: { $0.severity == .error }) {
            throw refusal(error.message + " [\(error.rule)]", path: path)
        }
        guard let read else { throw refusal("it holds no model", path: path) }
        return (contents, read.version, read.root)
    }

    private static func refusal(_ problem: String, path: String) -> RemodelError {
        RemodelError(
            .invalidModel,
            "the compiled model in the Core Data store's \(CoreDataName.modelCacheTable) does not make a model Remodel can use: \(problem); pass the app's model with --model",
            path: path)
    }
}
