@testable import Remodel
@testable import RemodelModel

/// Builds `NSKeyedArchiver` archives by hand, for tests only: `$objects` with
/// `$null` first, objects referring to each other by `CF$UID`, one class
/// description per class name, `$top` naming the root.
struct KeyedArchiveBuilder {
    private(set) var objects: [PropertyListValue] = [.string("$null")]
    private var classes: [String: Int] = [:]

    /// The nil reference.
    static let null = PropertyListValue.uid(0)

    /// An object holding a plain value (strings are objects of their own in real archives).
    mutating func add(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return .uid(objects.count - 1)
    }

    /// An object of a class, with its fields.
    mutating func object(_ className: String, _ fields: [String: PropertyListValue]) -> PropertyListValue {
        let classIndex: Int
        if let known = classes[className] {
            classIndex = known
        } else {
            objects.append(
                .dictionary([
                    "$classname": .string(className), "$classes": .array([.string(className), .string("NSObject")]),
                ]))
            classIndex = objects.count - 1
            classes[className] = classIndex
        }
        var all = fields
        all["$class"] = .uid(classIndex)
        return add(.dictionary(all))
    }

    /// An `NSArray` of references.
    mutating func array(_ elements: [PropertyListValue]) -> PropertyListValue {
        object("NSArray", ["NS.objects": .array(elements)])
    }

    /// An `NSMutableDictionary` with string keys.
    mutating func dictionary(_ entries: [(String, PropertyListValue)]) -> PropertyListValue {
        var keys: [PropertyListValue] = []
        for (key, _) in entries { keys.append(add(.string(key))) }
        return object("NSMutableDictionary", ["NS.keys": .array(keys), "NS.objects": .array(entries.map(\.1))])
    }

    /// The archive's bytes, `root` as `$top`'s root.
    func archive(root: PropertyListValue, options: PropertyListWriter.Options = PropertyListWriter.Options()) -> [UInt8]
    {
        PropertyListWriter.encode(
            .dictionary([
                "$version": .integer(100_000), "$archiver": .string("NSKeyedArchiver"),
                "$top": .dictionary(["root": root]),
                "$objects": .array(objects),
            ]),
            options: options)
    }
}

/// Archives `XcodeExpression`s the way Foundation encodes `NSExpression`s, for round trips.
struct ExpressionArchiver {
    var builder = KeyedArchiveBuilder()

    static func archive(_ expression: XcodeExpression) -> [UInt8] {
        var archiver = ExpressionArchiver()
        let root = archiver.encode(expression)
        return archiver.builder.archive(root: root)
    }

    mutating func encode(_ expression: XcodeExpression) -> PropertyListValue {
        switch expression.kind {
        case .constant(let constant):
            return builder.object(
                "NSConstantValueExpression",
                ["NSConstantValue": constantValue(constant), "NSExpressionType": .integer(0)])
        case .evaluatedObject:
            return builder.object("NSSelfExpression", ["NSExpressionType": .integer(1)])
        case .variable(let name):
            return builder.object(
                "NSVariableExpression", ["NSVariable": builder.add(.string(name)), "NSExpressionType": .integer(2)])
        case .keyPath(let operand, let path):
            let specifier = builder.object(
                "NSKeyPathSpecifierExpression",
                ["NSKeyPath": builder.add(.string(path)), "NSExpressionType": .integer(10)])
            let arguments = builder.object("NSMutableArray", ["NS.objects": .array([specifier])])
            return builder.object(
                "NSKeyPathExpression",
                [
                    "NSOperand": encode(operand), "NSSelectorName": builder.add(.string("valueForKeyPath:")),
                    "NSArguments": arguments,
                    "NSExpressionType": .integer(4),
                ])
        case .function(let operand, let selector, let arguments):
            var fields: [String: PropertyListValue] = [
                "NSSelectorName": builder.add(.string(selector)), "NSExpressionType": .integer(4),
            ]
            let encoded = arguments.map { encode($0) }
            fields["NSArguments"] = builder.array(encoded)
            if let operand { fields["NSOperand"] = encode(operand) }
            return builder.object("NSFunctionExpression", fields)
        case .aggregate(let elements):
            let encoded = elements.map { encode($0) }
            return builder.object(
                "NSAggregateExpression", ["NSCollection": builder.array(encoded), "NSExpressionType": .integer(14)])
        case .ternary(let predicate, let then, let otherwise):
            return builder.object(
                "NSTernaryExpression",
                [
                    "NSPredicate": encode(predicate), "NSTrueExpression": encode(then),
                    "NSFalseExpression": encode(otherwise), "NSExpressionType": .integer(20),
                ])
        case .unsupported(let className):
            return builder.object(className, ["NSExpressionType": .integer(13)])
        }
    }

    mutating func encode(_ predicate: XcodePredicate) -> PropertyListValue {
        switch predicate.kind {
        case .constant(let value):
            return builder.object(value ? "NSTruePredicate" : "NSFalsePredicate", [:])
        case .comparison(let left, let comparison, let right, let modifier, let options):
            let flags =
                (options.contains("c") ? 1 : 0) | (options.contains("d") ? 2 : 0) | (options.contains("n") ? 4 : 0)
            let operation = builder.object(
                "NSPredicateOperator",
                [
                    "NSOperatorType": .integer(Int64(comparison.rawValue)),
                    "NSModifier": .integer(modifier == .all ? 1 : modifier == .any ? 2 : 0),
                    "NSOptions": .integer(Int64(flags)),
                ])
            return builder.object(
                "NSComparisonPredicate",
                [
                    "NSLeftExpression": encode(left), "NSRightExpression": encode(right),
                    "NSPredicateOperator": operation,
                ])
        case .and, .or, .not:
            return compound(predicate)
        case .unsupported(let className):
            return builder.object(className, [:])
        }
    }

    private mutating func compound(_ predicate: XcodePredicate) -> PropertyListValue {
        let (type, parts): (Int64, [XcodePredicate])
        switch predicate.kind {
        case .not(let inner): (type, parts) = (0, [inner])
        case .and(let list): (type, parts) = (1, list)
        case .or(let list): (type, parts) = (2, list)
        default: (type, parts) = (1, [])
        }
        let encoded = parts.map { encode($0) }
        return builder.object(
            "NSCompoundPredicate",
            ["NSSubpredicates": builder.array(encoded), "NSCompoundPredicateType": .integer(type)])
    }

    private mutating func constantValue(_ constant: XcodeConstant) -> PropertyListValue {
        switch constant {
        case .string(let text): return builder.add(.string(text))
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .bool(let value): return .bool(value)
        case .date(let seconds): return builder.object("NSDate", ["NS.time": .real(seconds)])
        case .data(let bytes): return builder.add(.data(bytes))
        case .null: return KeyedArchiveBuilder.null
        }
    }
}
