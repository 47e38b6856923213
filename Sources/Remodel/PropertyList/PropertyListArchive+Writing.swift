/// Writing a ``PropertyListArchive`` as Foundation's `NSKeyedArchiver` writes it (read from the archives of real
/// stores and public fixtures): `$objects[0]` is `$null`; an object takes the next number when it is first met, its
/// fields are written before its class, and a class description (`$classname`, `$classes`) takes a number when a
/// class is first finished; a dictionary's keys come before its values; equal strings, numbers and Booleans are one
/// object (Foundation's small strings and numbers are one instance each). The property list is then written by
/// ``BinaryPropertyListEncoder``.
extension PropertyListArchive {
    /// The archive's bytes.
    package var bytes: [UInt8] {
        var writing = ArchiveWriting()
        let root = writing.reference(to: self.root)
        let top: [BinaryPropertyListEncoder.Node.Entry] = [.init(topKey, .uid(root))]
        let entries: [BinaryPropertyListEncoder.Node.Entry]
        switch layout {
        case .current:
            entries = [
                .init("$version", .integer(100_000)), .init("$archiver", .string("NSKeyedArchiver")),
                .init("$top", .dictionary(top)), .init("$objects", .array(writing.objects)),
            ]
        case .legacy:
            entries = [
                .init("$top", .dictionary(top)), .init("$objects", .array(writing.objects)),
                .init("$version", .integer(100_000)), .init("$archiver", .string("NSKeyedArchiver")),
            ]
        }
        return BinaryPropertyListEncoder.encode(.dictionary(entries))
    }
}

private struct ArchiveWriting {
    typealias Node = BinaryPropertyListEncoder.Node
    var objects: [Node] = [.string("$null")]
    var classes: [String: Int] = [:]
    /// The plain objects written, by value: each is written once.
    var plain: [Node: Int] = [:]

    /// The class hierarchy Foundation writes in `$classes` for each class.
    static let superclasses: [String: [String]] = [
        "NSMutableArray": ["NSArray"], "NSMutableDictionary": ["NSDictionary"], "NSMutableSet": ["NSSet"],
    ]

    mutating func reference(to value: PropertyListArchive.Value) -> Int {
        switch value {
        case .string(let text): return plainObject(.string(text))
        case .integer(let number): return plainObject(.integer(number))
        case .real(let number): return plainObject(.real(number))
        case .bool(let flag): return plainObject(.bool(flag))
        case .data(let bytes):
            objects.append(.data(bytes))
            return objects.count - 1
        case .date(let seconds):
            return object("NSDate") { _ in [.init("NS.time", .real(seconds))] }
        case .uuid(let bytes):
            return object("NSUUID") { _ in [.init("NS.uuidbytes", .data(bytes))] }
        case .url(let text):
            return object("NSURL") { writing in
                [.init("NS.base", .uid(0)), .init("NS.relative", .uid(writing.reference(to: .string(text))))]
            }
        case .null:
            return object("NSNull") { _ in [] }
        case .array(let elements, let mutable):
            return object(mutable ? "NSMutableArray" : "NSArray") { writing in
                [.init("NS.objects", .array(elements.map { .uid(writing.reference(to: $0)) }))]
            }
        case .set(let elements, let mutable):
            return object(mutable ? "NSMutableSet" : "NSSet") { writing in
                [.init("NS.objects", .array(elements.map { .uid(writing.reference(to: $0)) }))]
            }
        case .dictionary(let entries, let mutable):
            return object(mutable ? "NSMutableDictionary" : "NSDictionary") { writing in
                let keys = entries.map { Node.uid(writing.reference(to: $0.key)) }
                let values = entries.map { Node.uid(writing.reference(to: $0.value)) }
                return [.init("NS.keys", .array(keys)), .init("NS.objects", .array(values))]
            }
        }
    }

    private mutating func plainObject(_ node: Node) -> Int {
        if let known = plain[node] { return known }
        objects.append(node)
        plain[node] = objects.count - 1
        return objects.count - 1
    }

    /// An object of `className`: its number taken first, its fields written by `fields`, then its class.
    private mutating func object(_ className: String, _ fields: (inout ArchiveWriting) -> [Node.Entry]) -> Int {
        let index = objects.count
        objects.append(.string("placeholder"))
        let written = fields(&self)
        let classReference = classIndex(className)
        objects[index] = .dictionary(written + [.init("$class", .uid(classReference))])
        return index
    }

    private mutating func classIndex(_ className: String) -> Int {
        if let known = classes[className] { return known }
        let chain = [className] + (Self.superclasses[className] ?? []) + ["NSObject"]
        objects.append(
            .dictionary([.init("$classname", .string(className)), .init("$classes", .array(chain.map(Node.string)))]))
        classes[className] = objects.count - 1
        return objects.count - 1
    }
}
