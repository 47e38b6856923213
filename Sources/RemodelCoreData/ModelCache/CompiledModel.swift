import Remodel

/// The model a Core Data store was written with, as the store keeps it in `Z_MODELCACHE`: raw DEFLATE
/// of an `NSKeyedArchiver` archive of the `NSManagedObjectModel` (docs/CORE-DATA-STORES.md, "The
/// store's own model").
///
/// Read with Remodel's own readers (``RawDeflate``, ``BinaryPropertyList``, ``KeyedArchive``), never
/// Apple's classes; every reference and value is checked, so a damaged cache is an error, never a crash.
///
/// For example:
/// ```swift
/// let model = try CompiledModel(compressed: bytes)
/// print(model.entities.map(\.name))   // ["Car", "ExpensiveSportCar", "Person", "SportCar"]
/// ```
struct CompiledModel: Sendable, Hashable {
    /// Why bytes are not a compiled model Remodel can read.
    struct Failure: Error, Sendable, Hashable {
        /// What is wrong, such as `entity Car: NSProperties is not a dictionary`.
        var message: String
        /// The class Remodel does not read, when that is the reason (the bytes are fine): not damage.
        var unreadClass: String? = nil

        /// A class Remodel does not read, where it is (`entity Car's property trips`).
        static func unread(_ className: String, at place: String) -> Failure {
            Failure(message: "\(place) is an \(className), a class Remodel does not read", unreadClass: className)
        }
    }

    /// An entity with the properties it declares (not those it inherits).
    struct Entity: Sendable, Hashable {
        var name: String
        var className: String?
        var parentName: String?
        var isAbstract = false
        /// The renaming identifier, when it is not the name itself.
        var renamingIdentifier: String?
        var versionHashModifier: String?
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        /// Each uniqueness constraint's property names.
        var uniquenessConstraints: [[String]] = []
        var fetchIndexes: [FetchIndex] = []
        var userInfo: [String: String] = [:]
    }

    /// A fetch index: its name and its elements in order.
    struct FetchIndex: Sendable, Hashable {
        var name: String
        var elements: [(property: String, ascending: Bool)]

        static func == (lhs: FetchIndex, rhs: FetchIndex) -> Bool {
            lhs.name == rhs.name && lhs.elements.elementsEqual(rhs.elements, by: { $0 == $1 })
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            for element in elements {
                hasher.combine(element.property)
                hasher.combine(element.ascending)
            }
        }
    }

    /// A value as the model keeps it: a default, a minimum or a maximum.
    enum Value: Sendable, Hashable {
        case integer(Int64)
        case real(Double)
        case boolean(Bool)
        case text(String)
        /// Seconds since 2001-01-01 UTC.
        case date(Double)
    }

    struct Attribute: Sendable, Hashable {
        var name: String
        var type: AttributeType
        var isOptional = false
        var isTransient = false
        var defaultValue: Value?
        var minimum: Value?
        var maximum: Value?
        var renamingIdentifier: String?
        var versionHashModifier: String?
        var valueTransformerName: String?
        /// `NSAttributeValueClassName` where Xcode shows it as the custom class (Transformable, Binary).
        var valueClassName: String?
        var allowsExternalStorage = false
        var preservesValueAfterDeletion = false
        var isIndexed = false
        var userInfo: [String: String] = [:]
        /// A composite's members (`NSCompositeElements`, nested composites with members of their own), and the
        /// name its `<composite>` gets (``CompiledModel/nameComposites()``).
        var elements: [Attribute] = []
        var compositeName: String?
        /// A derived attribute's expression (`NSDerivedAttributeDescription`), in Foundation's format syntax.
        var derivationExpression: String?
        /// The classes of the attribute's parts Remodel does not read (a derivation's `NSSubqueryExpression`).
        var unreadClasses: [String] = []
    }

    struct Relationship: Sendable, Hashable {
        var name: String
        var destination: String
        var inverseName: String?
        var isOptional = false
        var isTransient = false
        var isToMany = false
        var isOrdered = false
        var minCount = 0
        /// 0 for no maximum.
        var maxCount = 0
        var deletionRule: DeletionRule = .nullify
        var renamingIdentifier: String?
        var versionHashModifier: String?
        var userInfo: [String: String] = [:]
    }

    /// Every entity, by name.
    var entities: [Entity]
    /// The names of the fetch request templates (`NSFetchRequestTemplates`), kept by Core Data, not stored data.
    var fetchRequestNames: [String] = []
    /// `NSVersionIdentifiers` (Xcode's "Model Version Identifier"), sorted.
    var versionIdentifiers: [String]
    /// The composites the attributes use, by the names ``nameComposites()`` gives them, in name order.
    var composites: [Composite] = []

    /// A composite the model's composite attributes are made of (`<composite>` in the model file).
    struct Composite: Sendable, Hashable {
        var name: String
        var elements: [Attribute]
    }

    /// The largest decompressed archive accepted: compiled models of real apps are tens of kilobytes.
    static let maximumArchiveBytes = 64 << 20

    /// Decodes the content of `Z_MODELCACHE`.
    init(compressed: [UInt8]) throws(Failure) {
        let bytes: [UInt8]
        do {
            bytes = try RawDeflate.inflate(compressed, limit: Self.maximumArchiveBytes)
        } catch {
            throw Failure(message: "it is not a DEFLATE stream Remodel can read (\(error.message))")
        }
        try self.init(archive: bytes)
    }

    /// Decodes the keyed archive a `Z_MODELCACHE` holds once decompressed.
    init(archive bytes: [UInt8]) throws(Failure) {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(bytes: bytes)
        } catch {
            throw Failure(message: "it does not hold a keyed archive (\(error.message))")
        }
        self = try CompiledModelDecoder(archive: archive).model()
        try checkWritable()
    }

    init(entities: [Entity], versionIdentifiers: [String]) {
        self.entities = entities
        self.versionIdentifiers = versionIdentifiers
    }

    /// What the archive holds that Remodel does not read, one phrase each (`NSSubqueryExpression in
    /// Author.recent's derivation`): said, never taken for damage.
    var unread: [String] {
        entities.flatMap { entity in
            entity.attributes.flatMap { attribute in
                attribute.unreadClasses.map { "\($0) in \(entity.name).\(attribute.name)" }
            }
        }
    }

    /// The entity named `name`.
    func entity(named name: String) -> Entity? { entities.first { $0.name == name } }
}
