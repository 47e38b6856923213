import Testing

@testable import Remodel

struct ExpressionTypeCheckerTests {
    let checker = LibraryFixture.checker

    func type(_ text: String) throws -> String {
        try checker.check(text).resultType.description
    }

    func error(_ text: String) -> ExpressionDiagnostic? {
        do {
            _ = try checker.check(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func typesAndOptionality() throws {
        #expect(
            try type(
                "$source.firstName".replacingOccurrences(of: "firstName", with: "name") + " + ' ' + $source.nickname")
                == "String?")
        #expect(try type("$source.nickname + '!'") == "String")
        #expect(try type("$source.small + 1") == "Integer")
        #expect(try type("$source.small + 1.5") == "Double")
        #expect(try type("$source.small + $source.balance") == "Decimal?")
        #expect(try type("$source.balance * $source.score") == "Double?")
        #expect(try type("$source.books.@count > 0") == "Boolean")
        #expect(try type("$source.favoriteBook.author.books.@count") == "Integer?")
        #expect(try type("$source.favoriteBook.title") == "String?")
        #expect(try type("$source.name ?? 'anonymous'") == "String")
        #expect(try type("coalesce($source.age, $source.favoriteBook.pages, 0)") == "Integer")
        #expect(try type("coalesce($source.age, $source.score)") == "Double?")
        #expect(try type("$source.age == nil") == "Boolean")
        #expect(try type("$source.active ? 1 : nil") == "Integer?")
        #expect(try type("int('12')") == "Integer?")
        #expect(try type("string($source.small)") == "String")
        #expect(try type("now()") == "Date")
        #expect(try type("uuid()") == "UUID")
        #expect(try type("nil") == "nil")
        #expect(try type("length($source.nickname)") == "Integer")
    }

    @Test func messagesNameTheEntityAndSuggest() {
        let cases: [(String, String, Range<Int>)] = [
            ("$source.fulName", "Person has no attribute 'fulName'; did you mean 'fullName'?", 8..<15),
            ("$source.favoriteBook.titel", "Book has no attribute 'titel'; did you mean 'title'?", 21..<26),
            (
                "$source.favoritBook.title", "Person has no relationship 'favoritBook'; did you mean 'favoriteBook'?",
                8..<19
            ),
            (
                "$source.books.title",
                "'books' is a to-many relationship of Person; only to-one relationships can be followed", 8..<13
            ),
            (
                "$source.books",
                "'books' is a to-many relationship of Person and has no single value; count it with '$source.books.@count'",
                8..<13
            ),
            (
                "$source.favoriteBook",
                "'favoriteBook' is a relationship of Person, not an attribute; name an attribute of its destination: '$source.favoriteBook.title'",
                8..<20
            ),
            (
                "$source.favoriteBook.@count",
                "'favoriteBook' is a to-one relationship of Person; '@count' needs a to-many relationship", 8..<20
            ),
            ("$source.name.@count", "'name' is an attribute of Person; '@count' needs a to-many relationship", 8..<12),
            (
                "$source.name.length",
                "'name' is an attribute of Person, not a relationship; only to-one relationships can be followed",
                8..<12
            ),
            (
                "$source.blob", "attribute 'blob' of Person has type Transformable, which expressions cannot read",
                8..<12
            ),
            ("$source.scratch", "attribute 'scratch' of Person is transient and has no stored value", 8..<15),
            (
                "$source.name + 1",
                "cannot add String and Integer; convert the String with int(…) (nil when the text is not a number) to add numbers, or convert the Integer with string(…) to join text",
                13..<14
            ),
            (
                "1.5 + $source.nickname",
                "cannot add Double and String; convert the String with double(…) (nil when the text is not a number) to add numbers, or convert the Double with string(…) to join text",
                4..<5
            ),
            ("$source.birthday - 1", "cannot subtract Date and Integer; '-' needs numbers", 17..<18),
            ("$source.balance % 2", "'%' is not defined for Decimal; convert with int(…) or double(…)", 16..<17),
            (
                "$source.name > 1",
                "cannot compare String and Integer; convert the String with int(…) (nil when the text is not a number) to compare numbers, or convert the Integer with string(…) to compare text",
                0..<16
            ),
            ("$source.active < true", "'<' cannot order Boolean values; only '==' and '!=' compare them", 15..<16),
            ("$source.age > nil", "'>' cannot compare with nil; only '==' and '!=' test for nil", 12..<13),
            ("$source.age && true", "the left operand of '&&' must be Boolean, not Integer", 0..<11),
            ("!$source.name", "the operand of '!' must be Boolean, not String", 1..<13),
            ("-$source.name", "cannot negate String; '-' needs a number: convert it with int(…) or double(…)", 0..<13),
            ("$source.age ? 1 : 2", "the condition of '?:' must be Boolean, not Integer", 0..<11),
            (
                "$source.active ? 1 : 'one'",
                "the branches of '?:' have different types: Integer and String; convert the String with int(…) (nil when the text is not a number), or convert the Integer with string(…)",
                17..<26
            ),
            (
                "$source.name ?? 0",
                "the operands of '??' have different types: String and Integer; convert the String with int(…) (nil when the text is not a number), or convert the Integer with string(…)",
                0..<17
            ),
            (
                "$source.name * 2",
                "cannot multiply String and Integer; '*' needs numbers: convert the String with int(…) (nil when the text is not a number)",
                13..<14
            ),
            ("lowercase(1)", "the argument of lowercase must be String, not Integer; convert with string(…)", 10..<11),
            (
                "substring('abc', '1', 2)", "the start of substring must be Integer, not String; convert with int(…)",
                17..<20
            ),
            ("length('a', 'b')", "length takes 1 argument, not 2: length(string)", 0..<16),
            ("now(1)", "now takes no arguments, not 1: now()", 0..<6),
            ("coalesce(1)", "coalesce takes at least two arguments: coalesce(value, value, …)", 0..<11),
            ("int($source.birthday)", "int(…) cannot convert Date", 4..<20),
            ("string($source.photo)", "string(…) cannot convert Binary", 7..<20),
            ("nil + nil", "cannot add nil and nil", 0..<9),
        ]
        for (text, message, range) in cases {
            let diagnostic = error(text)
            #expect(diagnostic?.message == message, "\(text)")
            #expect(diagnostic?.range == range, "\(text)")
            #expect(diagnostic?.rule.rawValue == "expression-type", "\(text)")
        }
    }

    func assign(_ text: String, _ type: AttributeType, optional: Bool = true) -> Result<
        CheckedExpression, ExpressionDiagnostic
    > {
        Result { () throws(ExpressionDiagnostic) -> CheckedExpression in
            try checker.check(try ExpressionParser.parse(text), assignableTo: type, optional: optional)
        }
    }

    func assignmentError(_ text: String, _ type: AttributeType) -> String? {
        if case .failure(let error) = assign(text, type) { return error.message }
        return nil
    }

    @Test func assignability() throws {
        for type: AttributeType in [.integer16, .integer32, .integer64, .double, .float, .decimal] {
            #expect(throws: Never.self) { try assign("$source.small + 1", type).get() }
        }
        #expect(throws: Never.self) { try assign("$source.score", .float).get() }
        #expect(throws: Never.self) { try assign("$source.ratio", .double).get() }
        #expect(throws: Never.self) { try assign("$source.nickname", .uri).get() }
        #expect(throws: Never.self) { try assign("nil", .date).get() }
        #expect(
            assignmentError("$source.small", .string)
                == "cannot assign Integer to a String attribute; convert with string(…)")
        #expect(
            assignmentError("$source.score", .integer32)
                == "cannot assign Double to an Integer 32 attribute; convert with int(…)")
        #expect(
            assignmentError("$source.balance", .double)
                == "cannot assign Decimal to a Double attribute; convert with double(…)")
        #expect(
            assignmentError("$source.score", .decimal)
                == "cannot assign Double to a Decimal attribute; convert with decimal(…)")
        #expect(
            assignmentError("$source.name", .integer64)
                == "cannot assign String to an Integer 64 attribute; convert with int(…) (nil when the text is not a number)"
        )
        #expect(assignmentError("$source.active", .date) == "cannot assign Boolean to a Date attribute")
        #expect(
            assignmentError("$source.name", .transformable)
                == "an expression cannot give a value to a Transformable attribute")
    }

    /// Text meeting a number is mended on the side the destination wants (issue 43 item 5): `$source.name + 1` into a
    /// number converts the text (`int($source.name) + 1`), into text the number; the destination's own type
    /// chooses the conversion; where the value is not the destination's (an argument, a comparison), both are said.
    @Test func hintsConvertOnTheSideTheDestinationWants() throws {
        let toInt = "convert the String with int(…) (nil when the text is not a number)"
        let cases: [(String, AttributeType, String)] = [
            ("$source.name + 1", .integer32, "cannot add String and Integer; \(toInt)"),
            ("1 + $source.name", .integer64, "cannot add Integer and String; \(toInt)"),
            (
                "$source.name + 1", .double,
                "cannot add String and Integer; convert the String with double(…) (nil when the text is not a number)"
            ),
            (
                "$source.name + 1", .decimal,
                "cannot add String and Integer; convert the String with decimal(…) (nil when the text is not a number)"
            ),
            ("$source.name + 1", .string, "cannot add String and Integer; convert the Integer with string(…)"),
            ("$source.name - 1", .integer16, "cannot subtract String and Integer; '-' needs numbers: \(toInt)"),
            (
                "$source.name * $source.nickname", .integer16,
                "cannot multiply String and String; '*' needs numbers: convert each String with int(…) (nil when the text is not a number)"
            ),
            (
                "$source.active ? $source.name : 0", .integer32,
                "the branches of '?:' have different types: String and Integer; \(toInt)"
            ),
            (
                "$source.name ?? 0", .string,
                "the operands of '??' have different types: String and Integer; convert the Integer with string(…)"
            ),
            (
                "coalesce($source.name, 0)", .integer64,
                "the arguments of coalesce have different types: String and Integer; \(toInt)"
            ),
            (
                "length($source.name + 1)", .integer32,
                "cannot add String and Integer; convert the Integer with string(…)"
            ),
            (
                "$source.name > 1 ? 1 : 0", .integer32,
                "cannot compare String and Integer; \(toInt) to compare numbers, or convert the Integer with string(…) to compare text"
            ),
        ]
        for (text, type, message) in cases {
            guard case .failure(let error) = assign(text, type) else {
                Issue.record("\(text) into \(type.rawValue) checked")
                continue
            }
            #expect(error.message == message, "\(text) into \(type.rawValue)")
        }
    }

    @Test func optionalValueForRequiredAttributeIsAWarning() throws {
        let checked = try assign("$source.name", .string, optional: false).get()
        #expect(
            checked.warnings.map(\.message) == [
                "the value can be nil but the attribute is required; give a default with '?? …'"
            ])
        #expect(checked.warnings.map(\.severity) == [.warning])
        #expect(try assign("$source.name ?? ''", .string, optional: false).get().warnings.isEmpty)
    }

    @Test func assignmentWidensToTheStoredEncoding() throws {
        let row = LibraryRowStub(values: ["small": .integer(7)])
        let interpreter = ExpressionInterpreter()
        #expect(try interpreter.evaluate(try assign("$source.small", .double).get(), row: row) == .real(7))
        #expect(try interpreter.evaluate(try assign("$source.small", .decimal).get(), row: row) == .text("7"))
        #expect(try interpreter.evaluate(try assign("$source.small", .integer16).get(), row: row) == .integer(7))
    }
}

/// A row with only source attributes.
struct LibraryRowStub: ExpressionRow {
    var values: [String: SQLiteValue]
    var counts: [String: Int64] = [:]

    func value(of attribute: String, through relationships: [String]) -> SQLiteValue {
        relationships.isEmpty ? values[attribute] ?? .null : .null
    }

    func count(of relationship: String, through relationships: [String]) -> SQLiteValue {
        relationships.isEmpty ? .integer(counts[relationship] ?? 0) : .null
    }
}
