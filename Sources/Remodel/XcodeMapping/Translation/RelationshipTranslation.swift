/// What an Xcode relationship mapping's value expression means in Remodel: the
/// source relationship whose links the destination relationship is rebuilt from.
///
/// Xcode writes `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)`
/// (or the `…ForSourceRelationshipNamed:…` form): the destination objects made from
/// the objects `$source.owner` reaches. Remodel rebuilds every relationship from
/// the links of a source relationship, so that is relationship `owner`.
struct RelationshipTranslation: Sendable, Hashable {
    /// The source relationship read; `nil` when the relationship starts empty (`nil`).
    var sourceRelationship: String?
    /// The entity mapping the expression names (`PersonToPerson`), when it names one.
    var entityMapping: String?

    static let byEntityMapping = "destinationInstancesForEntityMappingNamed:sourceInstances:"
    static let bySourceRelationship = "destinationInstancesForSourceRelationshipNamed:sourceInstances:"

    /// The translation of a relationship mapping's expression.
    static func translate(_ expression: XcodeExpression) throws(TranslationRefusal) -> RelationshipTranslation {
        switch expression.kind {
        case .constant(.null):
            return RelationshipTranslation(sourceRelationship: nil, entityMapping: nil)
        case .keyPath:
            return RelationshipTranslation(sourceRelationship: try relationship(readBy: expression), entityMapping: nil)
        case .function(let operand?, let selector, let arguments):
            guard case .variable("manager") = operand.kind,
                selector == byEntityMapping || selector == bySourceRelationship
            else { break }
            guard arguments.count == 2, case .constant(.string(let name)) = arguments[0].kind else {
                throw TranslationRefusal(
                    message: "\(selector) takes a name in quotes and the source objects", range: expression.range)
            }
            let read = try relationship(readBy: arguments[1])
            return RelationshipTranslation(
                sourceRelationship: read, entityMapping: selector == byEntityMapping ? name : nil)
        default:
            break
        }
        throw TranslationRefusal(
            message:
                "a relationship's value must be FUNCTION($manager, \"\(byEntityMapping)\", \"…\", $source.relationship) or its …ForSourceRelationshipNamed… form; \(expression) has no Remodel translation",
            range: expression.range)
    }

    /// The one source relationship a `$source.name` key path reads, or ``RelationshipMapping/sourceObject``
    /// for `$source` itself (the objects another entity mapping made from the same source object).
    private static func relationship(readBy expression: XcodeExpression) throws(TranslationRefusal) -> String {
        if case .variable("source") = expression.kind { return RelationshipMapping.sourceObject }
        guard case .keyPath(let operand, let path) = expression.kind, case .variable("source") = operand.kind,
            XcodeExpressionTranslator.isName(path)
        else {
            throw TranslationRefusal(
                message:
                    "the source objects must be $source itself or one relationship of it ($source.owner), not \(expression)",
                range: expression.range)
        }
        return path
    }
}
