/// One check that validation runs: a stable kebab-case id, a severity and a
/// short description (listed in SARIF output and in `docs/VALIDATE.md`).
struct ValidationRule: Sendable, Hashable {
    /// The stable identifier printed in brackets after each message.
    let id: DiagnosticRule
    /// Whether a finding is an error or a warning.
    let severity: Severity
    /// What the rule checks, in one sentence.
    let summary: String
}

extension ValidationRule {
    // MARK: - Reported while reading (ModelReader)

    static let malformedXML = ValidationRule(
        id: .malformedXML, severity: .error, summary: "The file is not well-formed XML.")
    static let wrongRoot = ValidationRule(
        id: .wrongRoot, severity: .error, summary: "A model file's root element is not <model>.")
    static let unreadableModel = ValidationRule(
        id: .unreadableModel, severity: .error, summary: "The path holds no model that can be read.")
    static let unsupportedLegacyModel = ValidationRule(
        id: .unsupportedLegacyModel, severity: .error,
        summary: "A version folder has no contents file (legacy binary model).")
    static let missingCurrentVersion = ValidationRule(
        id: .missingCurrentVersion, severity: .error,
        summary: ".xccurrentversion names a version the bundle does not have.")
    static let versionOrderUnknown = ValidationRule(
        id: .versionOrderUnknown, severity: .error,
        summary: "The version order file names a version the bundle does not have.")
    static let versionOrderIncomplete = ValidationRule(
        id: .versionOrderIncomplete, severity: .error,
        summary: "The version order file leaves out a version of the bundle.")

    // MARK: - Names

    static let invalidName = ValidationRule(
        id: .invalidName, severity: .error,
        summary:
            "An entity or property name is not an identifier (letters, digits and underscores, not starting with a digit)."
    )
    static let reservedName = ValidationRule(
        id: .reservedName, severity: .error,
        summary:
            "An entity or property name starts with '_' (the store reserves _pk, _entity and every such name) or an entity name starts with 'sqlite_'."
    )
    static let duplicateEntity = ValidationRule(
        id: .duplicateEntity, severity: .error, summary: "Two entities of one version have the same name.")
    static let duplicateProperty = ValidationRule(
        id: .duplicateProperty, severity: .error,
        summary: "An entity declares a property twice, or redefines a property it inherits.")
    static let equivalentNames = ValidationRule(
        id: .equivalentNames, severity: .error,
        summary:
            "Two entities of one version, or two properties of one entity, have names that are two to Core Data and SQLite but look alike (an accented letter written as one scalar in one and as a letter and a combining mark in the other)."
    )
    static let propertyNameClash = ValidationRule(
        id: .propertyNameClash, severity: .error,
        summary:
            "An attribute and a relationship (or fetched property) of one entity, declared or inherited, have the same name."
    )
    static let entityNameCase = ValidationRule(
        id: .entityNameCase, severity: .warning, summary: "An entity name does not start with an uppercase letter.")
    static let propertyNameCase = ValidationRule(
        id: .propertyNameCase, severity: .warning, summary: "A property name does not start with a lowercase letter."
    )

    // MARK: - Attributes

    static let unknownAttributeType = ValidationRule(
        id: .unknownAttributeType, severity: .error,
        summary: "An attribute's type is not a Core Data type, or a stored attribute has type Undefined.")
    static let unknownComposite = ValidationRule(
        id: .unknownComposite, severity: .error,
        summary: "A Composite attribute names a composite the version does not define.")
    static let compositeCycle = ValidationRule(
        id: .compositeCycle, severity: .error,
        summary: "A composite contains itself through its members, or composites nest more than 16 deep.")
    static let compositeMember = ValidationRule(
        id: .compositeMember, severity: .error,
        summary:
            "A composite's member is of a kind Core Data cannot keep in a composite (Object ID, transient, external binary data), or two members share a name."
    )
    static let transformableWithoutTransformer = ValidationRule(
        id: .transformableWithoutTransformer, severity: .warning,
        summary: "A stored Transformable attribute names no value transformer.")
    static let invalidDefaultValue = ValidationRule(
        id: .invalidDefaultValue, severity: .error,
        summary: "A default value does not parse as a value of the attribute's type.")
    static let invalidValueBound = ValidationRule(
        id: .invalidValueBound, severity: .error,
        summary: "A minimum or maximum does not parse for the attribute's type.")
    static let booleanWordForNumber = ValidationRule(
        id: .booleanWordForNumber, severity: .warning,
        summary: "A numeric attribute's default or bound is YES/NO/true/false, which Core Data reads as 1 or 0.")
    static let minGreaterThanMax = ValidationRule(
        id: .minGreaterThanMax, severity: .error, summary: "An attribute's minimum is greater than its maximum.")
    static let invalidRegularExpression = ValidationRule(
        id: .invalidRegularExpression, severity: .error, summary: "A regular expression does not compile.")

    // MARK: - Relationships

    static let unknownDeletionRule = ValidationRule(
        id: .unknownDeletionRule, severity: .error,
        summary: "A relationship's deletion rule is not Nullify, Cascade, Deny or No Action.")
    static let missingDestination = ValidationRule(
        id: .missingDestination, severity: .error,
        summary: "A relationship has no destination entity, or names one that does not exist.")
    static let missingInverse = ValidationRule(
        id: .missingInverse, severity: .error,
        summary: "A relationship's inverse names no relationship of the destination.")
    static let inverseMismatch = ValidationRule(
        id: .inverseMismatch, severity: .warning,
        summary:
            "A relationship's inverse does not point back at it (Xcode builds such models): each side is stored as a relationship without an inverse."
    )
    static let inverseEntityMismatch = ValidationRule(
        id: .inverseEntityMismatch, severity: .error,
        summary: "A relationship's inverseEntity is not its destination entity.")
    static let invalidCount = ValidationRule(
        id: .invalidCount, severity: .error,
        summary: "A relationship's minCount or maxCount is not a whole number of zero or more.")
    static let minCountGreaterThanMaxCount = ValidationRule(
        id: .minCountGreaterThanMaxCount, severity: .error,
        summary: "A relationship's minCount is greater than its maxCount.")
    static let noInverse = ValidationRule(
        id: .noInverse, severity: .warning, summary: "A relationship has no inverse (Xcode warns too).")
    static let denyWithoutInverse = ValidationRule(
        id: .denyWithoutInverse, severity: .warning,
        summary: "A to-many relationship with the Deny rule has no inverse.")

    // MARK: - Inheritance, constraints, versions

    static let missingParentEntity = ValidationRule(
        id: .missingParentEntity, severity: .error, summary: "An entity's parent entity does not exist.")
    static let inheritanceCycle = ValidationRule(
        id: .inheritanceCycle, severity: .error, summary: "Entities inherit from each other in a cycle.")
    static let unknownConstraintProperty = ValidationRule(
        id: .unknownConstraintProperty, severity: .error,
        summary: "A uniqueness constraint names a property the entity does not have (inherited ones count).")
    static let unknownIndexProperty = ValidationRule(
        id: .unknownIndexProperty, severity: .error,
        summary: "A fetch index names a property the entity does not have (inherited ones count).")
    static let identicalVersionHash = ValidationRule(
        id: .identicalVersionHash, severity: .warning,
        summary:
            "Two versions of a bundle have identical version hashes, so a store's version cannot be told from its hashes."
    )
    static let currentVersionNotLast = ValidationRule(
        id: .currentVersionNotLast, severity: .warning,
        summary:
            "The current version is not the last one in migration order, so later versions are never migrated to by default."
    )

    // MARK: - Derived attributes

    static let derivationMissing = ValidationRule(
        id: .derivationMissing, severity: .error,
        summary: "A derived attribute has no derivationExpression, so the store cannot compute it.")
    static let derivationSyntax = ValidationRule(
        id: .derivationSyntax, severity: .error,
        summary:
            "A derivationExpression is not Core Data's derivation grammar (a key path, a function of one, an aggregate, now())."
    )
    static let derivationInvalid = ValidationRule(
        id: .derivationInvalid, severity: .error,
        summary:
            "A derivationExpression names what the entity does not have, follows a to-many without an aggregate, or gives a value of another type than the attribute's."
    )
    static let derivationUnsupported = ValidationRule(
        id: .derivationUnsupported, severity: .error,
        summary:
            "A derivationExpression Core Data may compute but Remodel's store does not (another NSExpression function or operator, a derived or Composite source, Decimal aggregates)."
    )
    static let derivationIgnored = ValidationRule(
        id: .derivationIgnored, severity: .warning,
        summary:
            "A derivation that has no effect: an expression on an attribute that is not derived, a derived transient attribute, or a default value of a derived attribute."
    )

    // MARK: - What a model states that Remodel does not implement

    static let ignoredPlatformOption = ValidationRule(
        id: .ignoredPlatformOption, severity: .warning,
        summary:
            "A property asks for an Apple platform service Remodel has no counterpart of: Spotlight (spotlightIndexingEnabled, storedInTruthFile), persistent history (preserveAfterDeletion), CloudKit encryption (allowsCloudEncryption)."
    )
    static let ignoredFetchedProperty = ValidationRule(
        id: .ignoredFetchedProperty, severity: .warning,
        summary: "A fetched property: Remodel stores nothing for it and the generated records have no property for it.")
    static let ignoredFetchRequest = ValidationRule(
        id: .ignoredFetchRequest, severity: .warning,
        summary: "A fetch request template in the model: Remodel ignores it.")
    static let ignoredFetchIndexElement = ValidationRule(
        id: .ignoredFetchIndexElement, severity: .warning,
        summary:
            "A fetch index element given by an expression (the index is not created) or an R-tree index (created as an ordinary index)."
    )
    static let unknownModelAttribute = ValidationRule(
        id: .unknownModelAttribute, severity: .warning,
        summary: "An XML attribute of a model element that Remodel does not know: kept as read, no effect.")
    static let unknownModelElement = ValidationRule(
        id: .unknownModelElement, severity: .warning,
        summary: "An element of a model file that Remodel does not know: kept as read, no effect.")

    static let configurationUnknownEntity = ValidationRule(
        id: .configurationUnknownEntity, severity: .error,
        summary: "A configuration names an entity the version does not have.")
    static let configurationNotClosed = ValidationRule(
        id: .configurationNotClosed, severity: .warning,
        summary:
            "A configuration that cannot be a store of its own: it holds a sub-entity without its parent, or a relationship from one of its entities leads outside it (Core Data cannot relate objects in different stores)."
    )

    /// Every rule, in the order the documentation lists them.
    static let all: [ValidationRule] = [
        malformedXML, wrongRoot, unreadableModel, unsupportedLegacyModel, missingCurrentVersion, versionOrderUnknown,
        versionOrderIncomplete, invalidName, reservedName, duplicateEntity, duplicateProperty, equivalentNames,
        propertyNameClash, entityNameCase, propertyNameCase, unknownAttributeType, unknownComposite, compositeCycle,
        compositeMember, transformableWithoutTransformer,
        invalidDefaultValue, invalidValueBound, booleanWordForNumber, minGreaterThanMax, invalidRegularExpression,
        unknownDeletionRule, missingDestination, missingInverse, inverseMismatch, inverseEntityMismatch, invalidCount,
        minCountGreaterThanMaxCount, noInverse, denyWithoutInverse, missingParentEntity, inheritanceCycle,
        unknownConstraintProperty, unknownIndexProperty, identicalVersionHash, currentVersionNotLast,
        derivationMissing, derivationSyntax, derivationInvalid, derivationUnsupported, derivationIgnored,
        ignoredPlatformOption, ignoredFetchedProperty, ignoredFetchRequest,
        ignoredFetchIndexElement, unknownModelAttribute, unknownModelElement,
        configurationUnknownEntity, configurationNotClosed,
    ]

    /// Each rule's summary by id, for output formats that describe the rules they use.
    static let summaries: [String: String] = Dictionary(
        all.map { ($0.id.rawValue, $0.summary) }, uniquingKeysWith: { first, _ in first })
}

/// Diagnostics collected while validating, each made from its rule.
struct DiagnosticList {
    private(set) var items: [Diagnostic] = []
    /// Whether warnings are kept: the gate that refuses a model with errors (`ModelValidator.errors(in:)`)
    /// wants none, and then their messages and positions are never worked out.
    var keepsWarnings = true

    /// Adds a finding of `rule` at `location`.
    mutating func report(
        _ rule: ValidationRule, _ message: @autoclosure () -> String, at location: @autoclosure () -> SourceLocation
    ) {
        guard keepsWarnings || rule.severity == .error else { return }
        items.append(Diagnostic(rule.severity, rule: rule.id, message: message(), at: location()))
    }
}
