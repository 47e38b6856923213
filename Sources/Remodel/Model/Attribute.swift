/// An attribute of an entity: a named, typed value stored in a column.
public struct Attribute: Sendable, Hashable {
    /// What an attribute is made of, kept in one shared box: a copy (planning a long history reads the model's
    /// properties out of every version, again and again) then retains one object instead of each field, and two
    /// copies of one value compare equal without comparing their fields.
    private struct Fields: Hashable {
        var name: String
        var type: AttributeType
        var typeName: String?
        var isOptional: Bool
        var isTransient: Bool
        var defaultValue: String?
        var minValue: String?
        var maxValue: String?
        var regularExpression: String?
        var elementID: String?
        var versionHashModifier: String?
        var valueTransformerName: String?
        var compositeName: String?
        var isIndexed: Bool
        var userInfo: [String: String]
        var source: ElementSource
    }

    private final class Box: @unchecked Sendable {
        // Written only through a value that holds the only reference (`unique`): copy on write.
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// The fields to change: the box, copied first when another value shares it.
    private var unique: Box {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            return box
        }
    }

    /// The attribute's name, which is also its column name.
    public var name: String {
        get { box.fields.name }
        _modify { yield &unique.fields.name }
    }
    /// The type, or ``AttributeType/undefined`` when the file names none or an unknown one.
    public var type: AttributeType {
        get { box.fields.type }
        _modify { yield &unique.fields.type }
    }
    /// The type exactly as written in `attributeType` (for diagnostics about unknown types).
    public var typeName: String? {
        get { box.fields.typeName }
        _modify { yield &unique.fields.typeName }
    }
    /// Whether `nil` is allowed. Xcode leaves out `optional="NO"`, so absent means required.
    public var isOptional: Bool {
        get { box.fields.isOptional }
        _modify { yield &unique.fields.isOptional }
    }
    /// A transient attribute has no storage.
    public var isTransient: Bool {
        get { box.fields.isTransient }
        _modify { yield &unique.fields.isTransient }
    }
    /// The default value as written (`defaultValueString`, or `defaultDateTimeInterval` for dates).
    public var defaultValue: String? {
        get { box.fields.defaultValue }
        _modify { yield &unique.fields.defaultValue }
    }
    /// The lower bound as written (`minValueString`, or `minDateTimeInterval`).
    public var minValue: String? {
        get { box.fields.minValue }
        _modify { yield &unique.fields.minValue }
    }
    /// The upper bound as written (`maxValueString`, or `maxDateTimeInterval`).
    public var maxValue: String? {
        get { box.fields.maxValue }
        _modify { yield &unique.fields.maxValue }
    }
    /// A regular expression string values must match.
    public var regularExpression: String? {
        get { box.fields.regularExpression }
        _modify { yield &unique.fields.regularExpression }
    }
    /// The renaming identifier.
    public var elementID: String? {
        get { box.fields.elementID }
        _modify { yield &unique.fields.elementID }
    }
    /// Changes the version hash without changing anything else.
    public var versionHashModifier: String? {
        get { box.fields.versionHashModifier }
        _modify { yield &unique.fields.versionHashModifier }
    }
    /// The value transformer of a `Transformable` attribute.
    public var valueTransformerName: String? {
        get { box.fields.valueTransformerName }
        _modify { yield &unique.fields.valueTransformerName }
    }
    /// The composite a `Composite` attribute is made of.
    public var compositeName: String? {
        get { box.fields.compositeName }
        _modify { yield &unique.fields.compositeName }
    }
    /// Whether Xcode's `indexed="YES"` asks for an index (older models).
    public var isIndexed: Bool {
        get { box.fields.isIndexed }
        _modify { yield &unique.fields.isIndexed }
    }
    /// Entries of `<userInfo>`.
    public var userInfo: [String: String] {
        get { box.fields.userInfo }
        _modify { yield &unique.fields.userInfo }
    }
    /// Where the attribute is written.
    public var source: ElementSource {
        get { box.fields.source }
        _modify { yield &unique.fields.source }
    }

    /// Creates an attribute.
    public init(
        name: String, type: AttributeType, typeName: String? = nil, isOptional: Bool = true,
        isTransient: Bool = false, defaultValue: String? = nil, minValue: String? = nil,
        maxValue: String? = nil, regularExpression: String? = nil, elementID: String? = nil,
        versionHashModifier: String? = nil, valueTransformerName: String? = nil,
        compositeName: String? = nil, isIndexed: Bool = false, userInfo: [String: String] = [:],
        source: ElementSource = .synthetic
    ) {
        box = Box(
            Fields(
                name: name,
                type: type,
                typeName: typeName ?? type.rawValue,
                isOptional: isOptional,
                isTransient: isTransient,
                defaultValue: defaultValue,
                minValue: minValue,
                maxValue: maxValue,
                regularExpression: regularExpression,
                elementID: elementID,
                versionHashModifier: versionHashModifier,
                valueTransformerName: valueTransformerName,
                compositeName: compositeName,
                isIndexed: isIndexed,
                userInfo: userInfo,
                source: source))
    }

    public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }

    /// Whether the attribute has a column in the store.
    public var isStored: Bool { !isTransient && type != .undefined }
}
