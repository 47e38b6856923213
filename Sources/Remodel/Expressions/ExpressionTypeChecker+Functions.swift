extension ExpressionTypeChecker {
    /// Checks a function call's arguments and gives its type.
    func call(
        _ name: String, nameRange: Range<Int>, arguments: [Expression], range: Range<Int>
    ) throws(ExpressionDiagnostic) -> Typed {
        guard let function = ExpressionFunction(rawValue: name) else {
            let suggestion = closestName(to: name, in: ExpressionFunction.allCases.map(\.rawValue))
            throw .type(
                "unknown function '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), at: nameRange)
        }
        // An argument is what the function reads (text for the string functions), not the expression's value; only
        // coalesce passes its arguments' values on.
        let stringArguments: Set<ExpressionFunction> = [.lowercase, .uppercase, .trim, .length, .replace]
        let argumentChecker =
            function == .coalesce ? self : expecting(stringArguments.contains(function) ? .string : nil)
        var typed: [Typed] = []
        for argument in arguments { typed.append(try argumentChecker.type(argument)) }
        let optional = typed.contains { $0.type.isOptional }

        func arity(_ count: Int) throws(ExpressionDiagnostic) {
            guard arguments.count == count else {
                let word = count == 1 ? "argument" : "arguments"
                throw .type(
                    "\(name) takes \(count == 0 ? "no" : String(count)) \(word), not \(arguments.count): \(function.signature)",
                    at: range)
            }
        }
        func require(_ index: Int, _ expected: ExpressionType, _ role: String) throws(ExpressionDiagnostic) {
            let actual = typed[index].type.type
            guard actual == expected || actual == .nil else {
                let hint =
                    expected == .string
                    ? "; convert with string(…)" : expected == .integer ? "; convert with int(…)" : ""
                throw .type("\(role) of \(name) must be \(expected), not \(actual)\(hint)", at: arguments[index].range)
            }
        }

        switch function {
        case .lowercase, .uppercase, .trim, .length:
            try arity(1)
            try require(0, .string, "the argument")
            let stringFunction = StringFunction(rawValue: name) ?? .trim
            return Typed(
                .string(stringFunction, typed.map(\.node)), function == .length ? .integer : .string, optional: optional
            )
        case .substring:
            try arity(3)
            try require(0, .string, "the first argument")
            try require(1, .integer, "the start")
            try require(2, .integer, "the length")
            return Typed(.string(.substring, typed.map(\.node)), .string, optional: optional)
        case .replace:
            try arity(3)
            for index in 0..<3 {
                try require(index, .string, ["the first argument", "the text to find", "the replacement"][index])
            }
            return Typed(.string(.replace, typed.map(\.node)), .string, optional: optional)
        case .int, .double, .decimal, .string:
            try arity(1)
            let target: ExpressionType = [.int: .integer, .double: .double, .decimal: .decimal][function] ?? .string
            let argument = typed[0]
            let from = argument.type.type
            let accepted: Set<ExpressionType> =
                target == .string
                ? [.integer, .double, .decimal, .string, .boolean, .date, .uuid, .uri, .nil]
                : target == .decimal
                    ? [.integer, .double, .decimal, .string, .nil]
                    : [.integer, .double, .decimal, .string, .boolean, .nil]
            guard accepted.contains(from) else {
                throw .type("\(name)(…) cannot convert \(from)", at: arguments[0].range)
            }
            // Conversions that can fail (text that is not a number, a number out of range) can give nil.
            let canFail: Bool
            switch (from, target) {
            case (.string, .integer), (.string, .double), (.string, .decimal), (.double, .integer),
                (.decimal, .integer), (.date, .string),
                (.decimal, .double), (.double, .decimal):
                canFail = true
            default:
                canFail = false
            }
            return Typed(argument.converted(to: target).node, target, optional: argument.type.isOptional || canFail)
        case .now:
            try arity(0)
            return Typed(.now, .date, optional: false)
        case .uuid:
            try arity(0)
            return Typed(.randomUUID, .uuid, optional: false)
        case .coalesce:
            guard arguments.count >= 2 else {
                throw .type("coalesce takes at least two arguments: \(function.signature)", at: range)
            }
            var result = typed[0]
            var resultRange = arguments[0].range
            for index in 1..<typed.count {
                let (a, _) = try unify(result, typed[index], resultRange, arguments[index].range) { x, y in
                    "the arguments of coalesce have different types: \(x) and \(y)" + mismatchHint(x, y)
                }
                result = a
                resultRange = resultRange.lowerBound..<arguments[index].range.upperBound
            }
            let finalType = result.type.type
            let nodes = typed.map { $0.converted(to: finalType).node }
            return Typed(.coalesce(nodes), finalType, optional: typed.allSatisfy(\.type.isOptional))
        }
    }
}
