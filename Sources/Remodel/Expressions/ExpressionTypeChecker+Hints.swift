extension ExpressionTypeChecker {
    /// The checker for an operand whose value is to be `type` (nil: any), for the hints of its mistakes.
    func expecting(_ type: ExpressionType?) -> ExpressionTypeChecker {
        var checker = self
        checker.expected = type
        return checker
    }

    /// The function that reads text as a number of `type`: `int`, `double` or `decimal`.
    static func textConversion(to type: ExpressionType) -> String {
        type == .double ? "double" : type == .decimal ? "decimal" : "int"
    }

    /// The function that reads text beside a number of type `number`: the one of the number the expression is to
    /// give, where it is known (`double(…)` for a Double attribute), else the one of `number`.
    func textConversion(beside number: ExpressionType) -> String {
        Self.textConversion(to: expected.flatMap { $0.isNumeric ? $0 : nil } ?? number)
    }

    /// What text and a number meet for: to be added or joined (`+`), compared, or to agree (the two sides of `??`,
    /// the branches of `?:`, the arguments of `coalesce`).
    enum Meeting {
        case add, compare, agree
    }

    /// How to mend text meeting a number of type `number`, converting on the side the value is wanted: the text with
    /// `int(…)` (or `double(…)`, `decimal(…)`) where a number is expected (`int($source.age) + 1` into an
    /// Integer attribute), the number with `string(…)` where text is; both, each with what it gives, where the
    /// checker does not know (a comparison's operands, a filter).
    func textAndNumberHint(_ number: ExpressionType, _ meeting: Meeting) -> String {
        let toNumber =
            "convert the String with \(textConversion(beside: number))(…) (nil when the text is not a number)"
        let toText = "convert the \(number) with string(…)"
        switch (expected, meeting) {
        case (.string?, _) where meeting != .compare:
            return toText
        case (let wanted?, _) where wanted.isNumeric && meeting != .compare:
            return toNumber
        case (_, .add):
            return "\(toNumber) to add numbers, or \(toText) to join text"
        case (_, .compare):
            return "\(toNumber) to compare numbers, or \(toText) to compare text"
        case (_, .agree):
            return "\(toNumber), or \(toText)"
        }
    }

    /// The hint for two operands of different types that must agree (`??`, `?:`, `coalesce`) or be compared: for
    /// text and a number, which side to convert; nothing for others.
    func mismatchHint(_ left: ExpressionType, _ right: ExpressionType, _ meeting: Meeting = .agree) -> String {
        if left == .string && right.isNumeric { return "; " + textAndNumberHint(right, meeting) }
        if right == .string && left.isNumeric { return "; " + textAndNumberHint(left, meeting) }
        return ""
    }
}
