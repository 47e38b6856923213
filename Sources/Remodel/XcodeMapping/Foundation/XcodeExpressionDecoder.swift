/// Reads the `NSExpression` (and `NSPredicate`) object graph of a keyed
/// archive: each object's class says what it is, its fields hold its parts
/// under the keys Foundation encodes them with (`NSConstantValue`,
/// `NSVariable`, `NSOperand`, `NSSelectorName`, `NSArguments`, `NSKeyPath`,
/// `NSCollection`, `NSPredicate`/`NSTrueExpression`/`NSFalseExpression`;
/// `NSLeftExpression`, `NSRightExpression`, `NSPredicateOperator` with
/// `NSOperatorType` and `NSModifier`; `NSSubpredicates`, `NSCompoundPredicateType`).
///
/// Classes it does not know become ``XcodeExpression/Kind/unsupported(_:)``,
/// which the translator refuses with the class name.
///
/// For example:
/// ```swift
/// let expression = try XcodeExpressionDecoder.expression(fromArchive: bytes)
/// print(expression)   // $source.numberOfFlagella
/// ```
enum XcodeExpressionDecoder {
    /// The deepest nesting of expressions accepted (a reference cycle in a damaged archive stops here).
    static let maximumDepth = 64

    /// Selectors of Foundation's built-in expression functions, whose operand is not an object of the migration.
    static let builtInFunctions: Set<String> = [
        "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "abs:", "lowercase:", "uppercase:",
        "now",
        "sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:", "sqrt:", "log:", "ln:",
        "raise:toPower:",
        "exp:", "ceiling:", "trunc:", "random", "random:", "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:",
        "leftshift:by:", "rightshift:by:", "onesComplement:", "noindex:", "distanceToLocation:fromLocation:", "length:",
        "castObject:toType:",
    ]

    /// Decodes an archived `NSExpression` (a binary property list written by `NSKeyedArchiver`).
    static func expression(fromArchive bytes: [UInt8]) throws(KeyedArchive.Failure) -> XcodeExpression {
        let archive = try KeyedArchive(bytes: bytes)
        return try expression(try archive.root(), depth: 0)
    }

    static func expression(_ value: ArchivedValue, depth: Int) throws(KeyedArchive.Failure) -> XcodeExpression {
        let object = try archived(value, depth: depth, kind: "expression")
        switch object.className {
        case "NSConstantValueExpression":
            return constant(try object.value("NSConstantValue") ?? .null)
        case "NSSelfExpression":
            return XcodeExpression(.evaluatedObject)
        case "NSVariableExpression":
            guard let name = try object.value("NSVariable")?.string else {
                throw malformed(object, "has no NSVariable name")
            }
            return XcodeExpression(.variable(name))
        case "NSKeyPathSpecifierExpression":
            guard let path = try object.value("NSKeyPath")?.string else { throw malformed(object, "has no NSKeyPath") }
            return XcodeExpression(.constant(.string(path)))
        case "NSKeyPathExpression", "NSFunctionExpression":
            return try function(object, depth: depth)
        case "NSAggregateExpression":
            guard case .object(let collection)? = try object.value("NSCollection") else {
                throw malformed(object, "has no NSCollection")
            }
            var elements: [XcodeExpression] = []
            for element in try collection.elements() { elements.append(try expression(element, depth: depth + 1)) }
            return XcodeExpression(.aggregate(elements))
        case "NSTernaryExpression":
            guard let condition = try object.value("NSPredicate"), let then = try object.value("NSTrueExpression"),
                let otherwise = try object.value("NSFalseExpression")
            else { throw malformed(object, "lacks NSPredicate, NSTrueExpression or NSFalseExpression") }
            return XcodeExpression(
                .ternary(
                    try predicate(condition, depth: depth + 1), try expression(then, depth: depth + 1),
                    try expression(otherwise, depth: depth + 1)))
        default:
            return XcodeExpression(.unsupported(object.className))
        }
    }

    private static func function(_ object: ArchivedObject, depth: Int) throws(KeyedArchive.Failure) -> XcodeExpression {
        guard let selector = try object.value("NSSelectorName")?.string else {
            throw malformed(object, "has no NSSelectorName")
        }
        var arguments: [XcodeExpression] = []
        if case .object(let list)? = try object.value("NSArguments") {
            for argument in try list.elements() { arguments.append(try expression(argument, depth: depth + 1)) }
        }
        var operand: XcodeExpression?
        if let value = try object.value("NSOperand"), case .object = value {
            operand = try expression(value, depth: depth + 1)
        }
        if selector == "valueForKeyPath:" || selector == "valueForKey:", let operand, arguments.count == 1,
            case .constant(.string(let path)) = arguments[0].kind
        {
            return XcodeExpression(.keyPath(operand, path))
        }
        if builtInFunctions.contains(selector), let current = operand {
            switch current.kind {
            case .variable, .keyPath, .evaluatedObject: break
            default: operand = nil
            }
        }
        return XcodeExpression(.function(operand: operand, selector: selector, arguments: arguments))
    }

    /// An archived `NSPredicate`.
    static func predicate(_ value: ArchivedValue, depth: Int) throws(KeyedArchive.Failure) -> XcodePredicate {
        let object = try archived(value, depth: depth, kind: "predicate")
        switch object.className {
        case "NSTruePredicate": return XcodePredicate(.constant(true))
        case "NSFalsePredicate": return XcodePredicate(.constant(false))
        case "NSComparisonPredicate":
            guard let left = try object.value("NSLeftExpression"), let right = try object.value("NSRightExpression"),
                case .object(let operation)? = try object.value("NSPredicateOperator")
            else { throw malformed(object, "lacks NSLeftExpression, NSRightExpression or NSPredicateOperator") }
            guard let comparison = XcodeComparison(rawValue: Int(operation.integer("NSOperatorType"))) else {
                return XcodePredicate(.unsupported("operator type \(operation.integer("NSOperatorType"))"))
            }
            let modifiers: [Int64: XcodeComparison.Modifier] = [1: .all, 2: .any]
            let modifier: XcodeComparison.Modifier = modifiers[operation.integer("NSModifier")] ?? .direct
            let flags: Int64 = operation.integer("NSOptions")
            let letters: [(flag: Int64, letter: String)] = [(1, "c"), (2, "d"), (4, "n")]
            let options: String = letters.filter { flags & $0.flag != 0 }.map(\.letter).joined()
            return XcodePredicate(
                .comparison(
                    try expression(left, depth: depth + 1), comparison, try expression(right, depth: depth + 1),
                    modifier: modifier,
                    options: options))
        case "NSCompoundPredicate":
            guard case .object(let list)? = try object.value("NSSubpredicates") else {
                throw malformed(object, "has no NSSubpredicates")
            }
            var parts: [XcodePredicate] = []
            for part in try list.elements() { parts.append(try predicate(part, depth: depth + 1)) }
            switch object.integer("NSCompoundPredicateType") {
            case 0:
                guard parts.count == 1 else {
                    throw malformed(object, "negates \(parts.count) predicates instead of one")
                }
                return XcodePredicate(.not(parts[0]))
            case 1: return XcodePredicate(.and(parts))
            case 2: return XcodePredicate(.or(parts))
            default: throw malformed(object, "has compound type \(object.integer("NSCompoundPredicateType"))")
            }
        default:
            return XcodePredicate(.unsupported(object.className))
        }
    }

    /// A constant's value: inline property-list values, or archived strings, dates, data and `NSNull`.
    private static func constant(_ value: ArchivedValue) -> XcodeExpression {
        switch value {
        case .null: return XcodeExpression(.constant(.null))
        case .plain(let plain):
            switch plain {
            case .string(let text): return XcodeExpression(.constant(.string(text)))
            case .integer(let number): return XcodeExpression(.constant(.integer(number)))
            case .real(let number): return XcodeExpression(.constant(.real(number)))
            case .bool(let flag): return XcodeExpression(.constant(.bool(flag)))
            case .date(let seconds): return XcodeExpression(.constant(.date(seconds)))
            case .data(let bytes): return XcodeExpression(.constant(.data(bytes)))
            default: return XcodeExpression(.unsupported("constant \(plain)"))
            }
        case .object(let object):
            switch object.className {
            case "NSNull": return XcodeExpression(.constant(.null))
            case "NSDate":
                guard case .real(let seconds)? = object.fields["NS.time"] else { break }
                return XcodeExpression(.constant(.date(seconds)))
            case "NSData", "NSMutableData":
                guard case .data(let bytes)? = object.fields["NS.data"] else { break }
                return XcodeExpression(.constant(.data(bytes)))
            default:
                if let text = value.string { return XcodeExpression(.constant(.string(text))) }
            }
            return XcodeExpression(.unsupported("constant of class \(object.className)"))
        }
    }

    /// The object an archived expression or predicate is, within the depth allowed.
    private static func archived(_ value: ArchivedValue, depth: Int, kind: String) throws(KeyedArchive.Failure)
        -> ArchivedObject
    {
        guard depth <= maximumDepth else {
            throw KeyedArchive.Failure(
                message: "the \(kind) nests more than \(maximumDepth) levels deep, or refers to itself")
        }
        guard case .object(let object) = value else {
            throw KeyedArchive.Failure(message: "an archived \(kind) is a plain value, not an object")
        }
        return object
    }

    private static func malformed(_ object: ArchivedObject, _ problem: String) -> KeyedArchive.Failure {
        KeyedArchive.Failure(message: "the archived \(object.className) (object \(object.index)) \(problem)")
    }
}
