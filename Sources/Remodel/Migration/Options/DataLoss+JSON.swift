extension DataLoss {
    /// The loss as JSON, as the fleet's report (`remodel migrate --report`), its `--progress json` store events and
    /// `remodel test-matrix --format json` write it: `from`, `to`, `entity`, `property` (null for objects), `count`
    /// (null when not counted), `cause` (`dropped` or `nil`), and for values that became nil `expression` (null for
    /// an entity policy) and `example` (`_pk` and `values`, or null).
    package var json: JSONDocument {
        var members: [(String, JSONDocument)] = [
            ("from", .string(sourceVersion)),
            ("to", .string(destinationVersion)),
            ("entity", .string(entity)),
            ("property", property.map(JSONDocument.string) ?? .null),
            ("count", count.map(JSONDocument.int) ?? .null),
        ]
        switch cause {
        case .dropped:
            members.append(("cause", .string("dropped")))
        case .becameNil(let expression, let example):
            members += [
                ("cause", .string("nil")),
                ("expression", expression.map(JSONDocument.string) ?? .null),
                (
                    "example",
                    example.map { .object([("_pk", .int(Int($0.primaryKey))), ("values", .string($0.values))]) }
                        ?? .null
                ),
            ]
        }
        return .object(members)
    }
}
