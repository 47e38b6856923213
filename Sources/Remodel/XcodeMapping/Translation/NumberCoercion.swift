/// Core Data keeps every number and Boolean as an `NSNumber`, so an Xcode
/// mapping may give a Boolean to an Integer attribute, or a Double to an
/// Integer one, and the store takes it. Remodel's expressions are typed:
/// the translation writes the conversion Core Data made silently.
///
/// | Value → attribute | Written |
/// | --- | --- |
/// | Boolean → Integer | `int(x)` (0 or 1) |
/// | Boolean → Double, Float | `double(x)` |
/// | Boolean → Decimal | `decimal(int(x))` |
/// | Double, Decimal → Integer | `int(x)` (toward zero, as `NSNumber`'s `intValue`) |
/// | Double → Decimal, Decimal → Double | `decimal(x)`, `double(x)` |
/// | Integer, Double → Boolean | `(x != 0)` |
enum NumberCoercion {
    /// The value converted for the attribute when Core Data would have stored it as a number; unchanged otherwise.
    static func coerce(_ value: TranslatedText, into attribute: Attribute, checker: ExpressionTypeChecker?)
        -> TranslatedText
    {
        guard let checker, let checked = try? checker.check(value.text), let target = ExpressionType(attribute.type)
        else { return value }
        let origin = value.marks.first?.origin
        switch (checked.resultType.type, target) {
        case (.boolean, .integer), (.double, .integer), (.decimal, .integer):
            return TranslatedText.wrapping(value, "int(", ")", from: origin)
        case (.boolean, .double), (.decimal, .double):
            return TranslatedText.wrapping(value, "double(", ")", from: origin)
        case (.boolean, .decimal):
            return TranslatedText.wrapping(value, "decimal(int(", "))", from: origin)
        case (.double, .decimal):
            return TranslatedText.wrapping(value, "decimal(", ")", from: origin)
        case (.integer, .boolean), (.double, .boolean):
            return TranslatedText.wrapping(value, "(", " != 0)", from: origin)
        default:
            return value
        }
    }
}
