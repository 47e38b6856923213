public import Foundation

extension ModelBundle {
    /// Reads a model bundle at a file URL, throwing the first reading error.
    ///
    /// For example:
    /// ```swift
    /// let models = Bundle.module.url(forResource: "Models", withExtension: nil)!
    /// let bundle = try ModelBundle(contentsOf: models.appendingPathComponent("Library.xcdatamodeld"))
    /// ```
    /// - Parameter url: A `.xcdatamodeld` bundle, a `.xcdatamodel` folder or a `contents` file.
    /// - Throws: ``RemodelError`` with code ``RemodelError/Code/invalidModel`` naming the file and position.
    public init(contentsOf url: URL) throws(RemodelError) {
        try self.init(contentsOf: try url.filePath())
    }
}

extension ModelReader {
    /// Reads the model at a file URL, collecting every problem instead of stopping at the first.
    ///
    /// For example:
    /// ```swift
    /// let result = ModelReader.read(url: URL(fileURLWithPath: "Models/Library.xcdatamodeld"))
    /// for diagnostic in result.diagnostics { print(diagnostic) }
    /// ```
    public static func read(url: URL) -> ModelReadResult {
        read(path: url.path)
    }
}
