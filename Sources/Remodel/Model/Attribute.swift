/// An attribute of an entity: a named, typed value stored in a column.
public struct Attribute: Sendable, Hashable {
    /// What the value is made of, in one `CopyOnWrite` box.
    private struct Fields: Hashable, Sendable {
        var name: String
        var type: AttributeType
        var typeName: String?
        var isOptional: Bool
        var isTransient: Bool
        var defaultValue: String?
        var elementID: String?
        var isIndexed: Bool
        /// The fields most attributes leave unset, in a box of their own, nil while every one is unset: a long
        /// history holds tens of thousands of attributes, and these made up 100 of each one's 260 bytes.
        var rare: CopyOnWrite<Rare>?
        var source: ElementSource
    }

    /// The fields most attributes leave unset (``Fields/rare``).
    private struct Rare: Hashable, Sendable {
        var minValue: String?
        var maxValue: String?
        var regularExpression: String?
        var versionHashModifier: String?
        var valueTransformerName: String?
        var compositeName: String?
        var userInfo: [String: String] = [:]
        var isDerived = false
        var derivationExpression: String?

        /// The box for these fields, nil when every one is unset (one form for one value, so `==` and hashing
        /// of `Fields` stay those of the fields).
        var boxed: CopyOnWrite<Rare>? { self == Rare() ? nil : CopyOnWrite(self) }
    }

    private var fields: CopyOnWrite<Fields>

    /// The attribute's name, which is also its column name.
    public var name: String {
        get { fields.value.name }
        _modify { yield &fields.value.name }
    }
    /// The type, or ``AttributeType/undefined`` when the file names none or an unknown one.
    public var type: AttributeType {
        get { fields.value.type }
        _modify { yield &fields.value.type }
    }
    /// The type exactly as written in `attributeType` (for diagnostics about unknown types).
    public var typeName: String? {
        get { fields.value.typeName }
        _modify { yield &fields.value.typeName }
    }
    /// Whether `nil` is allowed. Xcode leaves out `optional="NO"`, so absent means required.
    public var isOptional: Bool {
        get { fields.value.isOptional }
        _modify { yield &fields.value.isOptional }
    }
    /// A transient attribute has no storage.
    public var isTransient: Bool {
        get { fields.value.isTransient }
        _modify { yield &fields.value.isTransient }
    }
    /// The default value as written (`defaultValueString`, or `defaultDateTimeInterval` for dates).
    public var defaultValue: String? {
        get { fields.value.defaultValue }
        _modify { yield &fields.value.defaultValue }
    }
    /// The lower bound as written (`minValueString`, or `minDateTimeInterval`).
    public var minValue: String? {
        get { fields.value.rare?.value.minValue }
        set { changeRare { $0.minValue = newValue } }
    }
    /// The upper bound as written (`maxValueString`, or `maxDateTimeInterval`).
    public var maxValue: String? {
        get { fields.value.rare?.value.maxValue }
        set { changeRare { $0.maxValue = newValue } }
    }
    /// A regular expression string values must match.
    public var regularExpression: String? {
        get { fields.value.rare?.value.regularExpression }
        set { changeRare { $0.regularExpression = newValue } }
    }
    /// The renaming identifier.
    public var elementID: String? {
        get { fields.value.elementID }
        _modify { yield &fields.value.elementID }
    }
    /// Changes the version hash without changing anything else.
    public var versionHashModifier: String? {
        get { fields.value.rare?.value.versionHashModifier }
        set { changeRare { $0.versionHashModifier = newValue } }
    }
    /// The value transformer of a `Transformable` attribute.
    public var valueTransformerName: String? {
        get { fields.value.rare?.value.valueTransformerName }
        set { changeRare { $0.valueTransformerName = newValue } }
    }
    /// The composite a `Composite` attribute is made of.
    public var compositeName: String? {
        get { fields.value.rare?.value.compositeName }
        set { changeRare { $0.compositeName = newValue } }
    }
    /// Whether Xcode's `indexed="YES"` asks for an index (older models).
    public var isIndexed: Bool {
        get { fields.value.isIndexed }
        _modify { yield &fields.value.isIndexed }
    }
    /// Entries of `<userInfo>`.
    public var userInfo: [String: String] {
        get { fields.value.rare?.value.userInfo ?? [:] }
        set { changeRare { $0.userInfo = newValue } }
    }
    /// Whether the store computes the value from ``derivationExpression`` (Xcode's `derived="YES"`, Core Data's
    /// `NSDerivedAttributeDescription`): no write path sets it (docs/MODELS.md, "Derived attributes").
    public var isDerived: Bool {
        get { fields.value.rare?.value.isDerived ?? false }
        set { changeRare { $0.isDerived = newValue } }
    }
    /// The derivation as written (`derivationExpression`): Core Data's expression grammar, such as
    /// `books.@count`, `author.name` or `canonical:(title)`. Kept as written even where ``isDerived`` is off
    /// (Xcode keeps it when the box is unticked), and meaningful only where it is on.
    public var derivationExpression: String? {
        get { fields.value.rare?.value.derivationExpression }
        set { changeRare { $0.derivationExpression = newValue } }
    }
    /// Where the attribute is written.
    public var source: ElementSource {
        get { fields.value.source }
        _modify { yield &fields.value.source }
    }

    /// Changes the rarely set fields, keeping them unboxed while every one is unset.
    private mutating func changeRare(_ change: (inout Rare) -> Void) {
        var rare = fields.value.rare?.value ?? Rare()
        change(&rare)
        fields.value.rare = rare.boxed
    }

    /// Creates an attribute.
    public init(
        name: String, type: AttributeType, typeName: String? = nil, isOptional: Bool = true,
        isTransient: Bool = false, defaultValue: String? = nil, minValue: String? = nil,
        maxValue: String? = nil, regularExpression: String? = nil, elementID: String? = nil,
        versionHashModifier: String? = nil, valueTransformerName: String? = nil,
        compositeName: String? = nil, isIndexed: Bool = false, userInfo: [String: String] = [:],
        isDerived: Bool = false, derivationExpression: String? = nil, source: ElementSource = .synthetic
    ) {
        fields = CopyOnWrite(
            Fields(
                name: name,
                type: type,
                typeName: typeName ?? type.rawValue,
                isOptional: isOptional,
                isTransient: isTransient,
                defaultValue: defaultValue,
                elementID: elementID,
                isIndexed: isIndexed,
                rare: Rare(
                    minValue: minValue, maxValue: maxValue, regularExpression: regularExpression,
                    versionHashModifier: versionHashModifier, valueTransformerName: valueTransformerName,
                    compositeName: compositeName, userInfo: userInfo, isDerived: isDerived,
                    derivationExpression: derivationExpression
                ).boxed,
                source: source))
    }

    /// Whether the attribute has a column in the store.
    public var isStored: Bool { !isTransient && type != .undefined }
}
