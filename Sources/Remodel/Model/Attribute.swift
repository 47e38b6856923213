/// An attribute of an entity: a named, typed value stored in a column.
public struct Attribute: Sendable, Hashable {
    /// The attribute's name, which is also its column name.
    public var name: String
    /// The type, or ``AttributeType/undefined`` when the file names none or an unknown one.
    public var type: AttributeType
    /// The type exactly as written in `attributeType` (for diagnostics about unknown types).
    public var typeName: String?
    /// Whether `nil` is allowed. Xcode leaves out `optional="NO"`, so absent means required.
    public var isOptional: Bool
    /// A transient attribute has no storage.
    public var isTransient: Bool
    /// The default value as written (`defaultValueString`, or `defaultDateTimeInterval` for dates).
    public var defaultValue: String?
    /// The lower bound as written (`minValueString`, or `minDateTimeInterval`).
    public var minValue: String?
    /// The upper bound as written (`maxValueString`, or `maxDateTimeInterval`).
    public var maxValue: String?
    /// A regular expression string values must match.
    public var regularExpression: String?
    /// The renaming identifier.
    public var elementID: String?
    /// Changes the version hash without changing anything else.
    public var versionHashModifier: String?
    /// The value transformer of a `Transformable` attribute.
    public var valueTransformerName: String?
    /// The composite a `Composite` attribute is made of.
    public var compositeName: String?
    /// Whether Xcode's `indexed="YES"` asks for an index (older models).
    public var isIndexed: Bool
    /// Entries of `<userInfo>`.
    public var userInfo: [String: String]
    /// Where the attribute is written.
    public var source: ElementSource

    /// Creates an attribute.
    public init(
        name: String, type: AttributeType, typeName: String? = nil, isOptional: Bool = true,
        isTransient: Bool = false, defaultValue: String? = nil, minValue: String? = nil,
        maxValue: String? = nil, regularExpression: String? = nil, elementID: String? = nil,
        versionHashModifier: String? = nil, valueTransformerName: String? = nil,
        compositeName: String? = nil, isIndexed: Bool = false, userInfo: [String: String] = [:],
        source: ElementSource = .synthetic
    ) {
        self.name = name
        self.type = type
        self.typeName = typeName ?? type.rawValue
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.minValue = minValue
        self.maxValue = maxValue
        self.regularExpression = regularExpression
        self.elementID = elementID
        self.versionHashModifier = versionHashModifier
        self.valueTransformerName = valueTransformerName
        self.compositeName = compositeName
        self.isIndexed = isIndexed
        self.userInfo = userInfo
        self.source = source
    }

    /// Whether the attribute has a column in the store.
    public var isStored: Bool { !isTransient && type != .undefined }
}
