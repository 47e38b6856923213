/// One step of a migration: from one version to the next (or, with a mapping
/// file that spans several versions, to a later one).
public struct MigrationStep: Sendable {
    /// The version the step reads.
    public var source: ModelVersion
    /// The version the step writes.
    public var destination: ModelVersion
    /// How every destination value is computed.
    public var mapping: MappingModel

    /// Whether the mapping came only from inference.
    public var isInferred: Bool { mapping.files.isEmpty }
}
