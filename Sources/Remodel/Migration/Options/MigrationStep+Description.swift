extension MigrationStep: CustomStringConvertible {
    /// `Library → Library 2 (mapping file Mappings/Library to Library 2.xml)`, or `(inferred)`.
    public var description: String {
        let how = isInferred ? "inferred" : "mapping file " + mapping.files.joined(separator: ", ")
        return "\(source.name) → \(destination.name) (\(how))"
    }
}
