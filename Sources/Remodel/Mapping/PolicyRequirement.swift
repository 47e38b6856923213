/// Swift code an entity mapping needs before it can run: an Xcode mapping
/// model names a custom `NSEntityMigrationPolicy` subclass for it, which is
/// the app's own Objective-C or Swift code and cannot run here. The app
/// registers an ``EntityPolicy`` under the class name
/// (`MigrationOptions.register(_:forClass:)`); planning refuses without one.
public struct PolicyRequirement: Sendable, Hashable, CustomStringConvertible {
    /// The class name as the mapping model writes it, such as `CoreStoreDemo.OrganismV2ToV3MigrationPolicy`.
    public var className: String
    /// The entity mapping's name in the mapping model, such as `OrganismToOrganism`.
    public var entityMapping: String
    /// Where the class is named.
    public var location: SourceLocation

    /// Creates a requirement.
    public init(className: String, entityMapping: String, location: SourceLocation) {
        self.className = className
        self.entityMapping = entityMapping
        self.location = location
    }

    /// `needs a Swift policy named 'X' (entity mapping Y, file:line:column)`.
    public var description: String {
        "needs a Swift policy named '\(className)' (entity mapping \(entityMapping), \(location))"
    }
}
