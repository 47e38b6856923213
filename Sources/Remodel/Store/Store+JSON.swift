internal import Foundation

extension Store {
    /// Imports objects from a JSON file in the export shape (see `docs/JSON.md`), all or nothing: the
    /// file is read in chunks and inserted in one transaction, which is rolled back on any error.
    ///
    /// For example:
    /// ```swift
    /// let count = try store.importJSON(from: "more-books.json")
    /// print("imported \(count) objects")
    /// ```
    /// - Parameter jsonPath: The JSON file.
    /// - Returns: How many objects were imported.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/invalidValue`` naming the
    ///   entity, `_pk` and attribute or relationship at fault
    ///   (`Person _pk 3 attribute "age": expected an integer, found "old"`); the store is then unchanged.
    @discardableResult
    public func importJSON(from jsonPath: String) throws(RemodelError) -> Int {
        try importJSON(from: jsonPath, progress: nil)
    }

    /// ``importJSON(from:)-(String)``, telling `progress` how much of the file is read.
    @discardableResult
    package func importJSON(from jsonPath: String, progress: ((OperationProgress) -> Void)?) throws(RemodelError)
        -> Int
    {
        let importer = JSONImporter(layout: layout, connection: connection, path: jsonPath)
        importer.progress = OperationProgressReporter(progress)
        try connection.transaction { () throws(RemodelError) in
            // The store's own triggers are put back, and every derived attribute computed, once the rows are in.
            try DerivedMaintenance.suspend(on: connection)
            try importer.load()
            try importer.reconcileRelationships()
            try StoreIndexes.build(layout, on: connection, path: jsonPath)
            try DerivedMaintenance.install(layout, on: connection)
            try importer.checkDerivedValues()
            try importer.finish()
            try importer.validateRelationshipCounts()
        }
        return importer.objectCount
    }

    /// Exports every object as JSON to a file, writing while reading rows; the file is replaced only
    /// when the export is complete.
    ///
    /// For example:
    /// ```swift
    /// try store.exportJSON(to: "library.json")
    /// ```
    /// - Parameter outputPath: The JSON file to write.
    /// - Throws: ``/RemodelModel/RemodelError`` when the store cannot be read or the file cannot be written, and with
    ///   ``/RemodelModel/RemodelError/Code/invalidValue`` naming the object when a stored composite value is damaged
    ///   (checked before anything is written).
    public func exportJSON(to outputPath: String) throws(RemodelError) {
        try exportJSON(to: outputPath, progress: nil)
    }

    /// ``exportJSON(to:)-(String)``, telling `progress` how many objects are written.
    package func exportJSON(to outputPath: String, progress: ((OperationProgress) -> Void)?) throws(RemodelError) {
        try FileSystem.writeAtomically(to: outputPath) { (output: inout JSONOutput) throws(RemodelError) in
            try readTransaction { () throws(RemodelError) in
                try checkEveryRowPlaceable(.all)
                try StoredValueCheck.checkComposites(layout: layout, on: connection, path: path)
                var exporter = JSONExporter(layout: layout, connection: connection)
                exporter.progress = OperationProgressReporter(progress)
                try exporter.export(to: &output)
            }
        }
    }

    /// Exports every object as JSON to standard output.
    ///
    /// For example:
    /// ```swift
    /// try store.exportJSONToStandardOutput()
    /// ```
    /// - Throws: ``/RemodelModel/RemodelError`` when the store cannot be read or the output cannot be written, and with
    ///   ``/RemodelModel/RemodelError/Code/invalidValue`` naming the object when a stored composite value is damaged
    ///   (checked before anything is written).
    public func exportJSONToStandardOutput() throws(RemodelError) {
        try exportJSONToStandardOutput(progress: nil)
    }

    /// ``exportJSONToStandardOutput()``, telling `progress` how many objects are written.
    package func exportJSONToStandardOutput(progress: ((OperationProgress) -> Void)?) throws(RemodelError) {
        try exportJSON(toFileDescriptor: STDOUT_FILENO, path: "<standard output>", progress: progress)
    }

    func exportJSON(
        toFileDescriptor descriptor: Int32, path outputPath: String, progress: ((OperationProgress) -> Void)? = nil
    ) throws(RemodelError) {
        var output = JSONOutput(descriptor: descriptor, path: outputPath)
        try readTransaction { () throws(RemodelError) in
            try checkEveryRowPlaceable(.all)
            try StoredValueCheck.checkComposites(layout: layout, on: connection, path: path)
            var exporter = JSONExporter(layout: layout, connection: connection)
            exporter.progress = OperationProgressReporter(progress)
            try exporter.export(to: &output)
        }
    }

    /// The export as text, for small stores and tests; with `objectsPerEntity`, only the first objects
    /// of each entity (by `_pk`), which reads no more of the store than those.
    package func exportJSONString(objectsPerEntity: Int? = nil) throws(RemodelError) -> String {
        var output = JSONOutput()
        try readTransaction { () throws(RemodelError) in
            // Only the first objects of each entity are read then: no table is read whole to look for strays.
            try checkEveryRowPlaceable(objectsPerEntity == nil ? .all : .indexed)
            var exporter = JSONExporter(layout: layout, connection: connection)
            exporter.objectsPerEntity = objectsPerEntity
            try exporter.export(to: &output)
        }
        return output.text
    }

    /// Refuses the store when rows of the tables `scope` searches have an `_entity` its version cannot place:
    /// the export reads entity by entity, and would leave them out without a word (``UnplaceableRows``).
    private func checkEveryRowPlaceable(_ scope: UnplaceableRows.Scope) throws(RemodelError) {
        let drifts = try UnplaceableRows.drifts(on: connection, layout: layout, scope: scope)
        guard !drifts.isEmpty else { return }
        throw StoreInspection(
            path: path, state: .schemaDrift(version: version.name, drifts: drifts), modelName: bundle.name,
            currentVersionName: bundle.currentVersionName, migrationSteps: nil
        ).refusal(or: .schemaDrift)
    }

    /// Runs `body` in a read transaction, so an export sees one consistent state.
    private func readTransaction(_ body: () throws(RemodelError) -> Void) throws(RemodelError) {
        try connection.execute("BEGIN")
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
