/// A mapping file as written: only what inference cannot know.
///
/// ```xml
/// <mapping model="Library" sourceVersion="Library" destinationVersion="Library 2">
///   <entity source="Person" destination="Person">
///     <attribute name="fullName" value="$source.firstName + ' ' + $source.lastName"/>
///   </entity>
/// </mapping>
/// ```
public struct MappingFile: Sendable, Hashable {
    /// One `<attribute name=… value=…/>`.
    public struct AttributeRule: Sendable, Hashable {
        /// The destination attribute.
        public var name: String
        /// The expression computing it.
        public var value: ValueExpression
        /// Where the element is written.
        public var source: ElementSource
    }

    /// One `<relationship name=… source=…/>`: which source relationship a destination relationship is rebuilt from.
    public struct RelationshipRule: Sendable, Hashable {
        /// The destination relationship.
        public var name: String
        /// The source relationship, or `nil` to leave it empty.
        public var sourceRelationship: String?
        /// Where the element is written.
        public var source: ElementSource
    }

    /// One `<entity>`: a source with no destination removes it, a destination
    /// with no source adds it empty, both map one to the other.
    public struct EntityRule: Sendable, Hashable {
        /// The source entity's name.
        public var sourceEntity: String?
        /// The destination entity's name.
        public var destinationEntity: String?
        /// Only source objects for which this is true are carried over.
        public var filter: ValueExpression?
        /// Attribute values.
        public var attributes: [AttributeRule]
        /// Relationship sources.
        public var relationships: [RelationshipRule]
        /// Where the element is written.
        public var source: ElementSource
    }

    /// The file's path.
    public var path: String
    /// The model's name (`model`).
    public var modelName: String
    /// The version it maps from (`sourceVersion`).
    public var sourceVersion: String
    /// The version it maps to (`destinationVersion`).
    public var destinationVersion: String
    /// The entity rules in file order.
    public var entities: [EntityRule]
    /// The `<mapping>` element.
    public var source: ElementSource
}

extension MappingFile {
    /// A second mapping (file or Xcode mapping model) for a pair of versions that one maps already (`first`).
    static func duplicateStep(from source: String, to destination: String, first: String, at location: SourceLocation?)
        -> Diagnostic
    {
        Diagnostic(
            .error, rule: .mappingDuplicateStep,
            message: "a second mapping from '\(source)' to '\(destination)'; the first is \(first): keep one",
            at: location)
    }
}
