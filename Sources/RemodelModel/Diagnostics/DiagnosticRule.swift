/// Every rule a diagnostic can name, spelled once: the stable id printed in brackets after the message
/// (`path:line:column: error: message [duplicate-entity]`), listed in SARIF output and docs/VALIDATE.md.
package enum DiagnosticRule: String, Sendable, Hashable, CaseIterable {
    // MARK: - Reading model files

    case malformedXML = "malformed-xml"
    case wrongRoot = "wrong-root"
    case unreadableModel = "unreadable-model"
    case unsupportedLegacyModel = "unsupported-legacy-model"
    case missingCurrentVersion = "missing-current-version"
    case versionOrderUnknown = "version-order-unknown"
    case versionOrderIncomplete = "version-order-incomplete"
    case versionOrderFormerName = "version-order-former-name"
    case currentVersionNotLast = "current-version-not-last"

    // MARK: - The model's rules (ValidationRule has a summary of each)

    case booleanWordForNumber = "boolean-word-for-number"
    case denyWithoutInverse = "deny-without-inverse"
    case duplicateEntity = "duplicate-entity"
    case duplicateProperty = "duplicate-property"
    case entityNameCase = "entity-name-case"
    case identicalVersionHash = "identical-version-hash"
    case inheritanceCycle = "inheritance-cycle"
    case invalidCount = "invalid-count"
    case invalidDefaultValue = "invalid-default-value"
    case invalidName = "invalid-name"
    case invalidRegularExpression = "invalid-regular-expression"
    case invalidValueBound = "invalid-value-bound"
    case inverseEntityMismatch = "inverse-entity-mismatch"
    case inverseMismatch = "inverse-mismatch"
    case minCountGreaterThanMaxCount = "min-count-greater-than-max-count"
    case minGreaterThanMax = "min-greater-than-max"
    case missingDestination = "missing-destination"
    case missingInverse = "missing-inverse"
    case missingParentEntity = "missing-parent-entity"
    case noInverse = "no-inverse"
    case propertyNameCase = "property-name-case"
    case propertyNameClash = "property-name-clash"
    case reservedName = "reserved-name"
    case transformableWithoutTransformer = "transformable-without-transformer"
    case unknownAttributeType = "unknown-attribute-type"
    case unknownComposite = "unknown-composite"
    case compositeCycle = "composite-cycle"
    case compositeMember = "composite-member"
    case unknownConstraintProperty = "unknown-constraint-property"
    case unknownDeletionRule = "unknown-deletion-rule"
    case unknownIndexProperty = "unknown-index-property"
    case equivalentNames = "equivalent-names"

    // MARK: - Mapping files

    case mappingConflict = "mapping-conflict"
    case mappingDuplicateAttribute = "mapping-duplicate-attribute"
    case mappingDuplicateStep = "mapping-duplicate-step"
    case mappingFilterType = "mapping-filter-type"
    case mappingIncomplete = "mapping-incomplete"
    case mappingMissingAttribute = "mapping-missing-attribute"
    case mappingSourceObject = "mapping-source-object"
    case mappingUnknownAttribute = "mapping-unknown-attribute"
    case mappingUnknownElement = "mapping-unknown-element"
    case mappingUnknownEntity = "mapping-unknown-entity"
    case mappingUnknownModel = "mapping-unknown-model"
    case mappingUnknownRelationship = "mapping-unknown-relationship"
    case mappingUnknownVersion = "mapping-unknown-version"
    case mappingWrongRoot = "mapping-wrong-root"
    case expressionTooDeep = "expression-too-deep"

    // MARK: - Expressions

    case expressionSyntax = "expression-syntax"
    case expressionType = "expression-type"
    case expressionOptional = "expression-optional"

    // MARK: - The difference between two versions (remodel diff)

    case dataDropped = "data-dropped"
    case likelyRename = "likely-rename"
    case needsMapping = "needs-mapping"
    case newUniquenessConstraint = "new-uniqueness-constraint"
    case requiredLinkDropped = "required-link-dropped"

    // MARK: - Xcode mapping models

    case xcodeMappingBackwards = "xcode-mapping-backwards"
    case xcodeMappingData = "xcode-mapping-data"
    case xcodeMappingDuplicate = "xcode-mapping-duplicate"
    case xcodeMappingExpression = "xcode-mapping-expression"
    case xcodeMappingFilter = "xcode-mapping-filter"
    case xcodeMappingPolicy = "xcode-mapping-policy"
    case xcodeMappingSnapshotDiffers = "xcode-mapping-snapshot-differs"
    case xcodeMappingStructure = "xcode-mapping-structure"
    case xcodeMappingSuperseded = "xcode-mapping-superseded"
    case xcodeMappingUnknownEntityMapping = "xcode-mapping-unknown-entity-mapping"
    case xcodeMappingUnknownVersion = "xcode-mapping-unknown-version"
    case xcodeMappingUnmappedEntity = "xcode-mapping-unmapped-entity"

    // MARK: - Derived attributes

    case derivationMissing = "derivation-missing"
    case derivationSyntax = "derivation-syntax"
    case derivationInvalid = "derivation-invalid"
    case derivationUnsupported = "derivation-unsupported"
    case derivationIgnored = "derivation-ignored"
    case mappingDerivedAttribute = "mapping-derived-attribute"

    // MARK: - What a model states that Remodel does not implement

    case ignoredPlatformOption = "ignored-platform-option"
    case ignoredFetchedProperty = "ignored-fetched-property"
    case ignoredFetchRequest = "ignored-fetch-request"
    case ignoredFetchIndexElement = "ignored-fetch-index-element"
    case unknownModelAttribute = "unknown-model-attribute"
    case unknownModelElement = "unknown-model-element"

    // MARK: - Configurations

    case configurationUnknownEntity = "configuration-unknown-entity"
    case configurationNotClosed = "configuration-not-closed"
}
