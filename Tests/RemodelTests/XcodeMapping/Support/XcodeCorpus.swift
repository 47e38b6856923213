import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The Xcode mapping models of the shared corpus and what tests take from them.
enum XcodeCorpus {
    /// A corpus folder, such as `JohnEstropia__CoreStore`.
    static func folder(_ repository: String) -> String { ValidationSupport.corpus.path + "/" + repository }

    /// The `xcmapping.xml` of a mapping model in a corpus folder.
    static func mapping(_ repository: String, _ name: String) -> String {
        folder(repository) + "/" + name + ".xcmappingmodel/xcmapping.xml"
    }

    /// A bundle of a corpus folder.
    static func bundle(_ repository: String, _ name: String) throws -> ModelBundle {
        try ModelBundle(contentsOf: folder(repository) + "/" + name + ".xcdatamodeld")
    }

    /// The seven mapping models: (repository, name).
    static let all = [
        ("JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V1.FromV2"),
        ("JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V2.FromV1"),
        ("JohnEstropia__CoreStore", "OrganismV2ToV3"), ("JohnEstropia__CoreStore", "OrganismV3ToV2"),
        ("wireapp__wire-ios-data-model", "migration2.54"), ("dashpay__dashsync-iOS", "MappingFrom6To7Model"),
        ("alemar11__CoreDataPlus", "V2toV3"),
    ]

    /// The bytes of a binary attribute (`valueexpressiondata`, `sourcemodeldata`…) of the object that has it,
    /// in the object whose `name` is `property` (any object when nil).
    static func data(_ path: String, attribute: String, property: String? = nil) throws -> [UInt8] {
        let root = try XMLDocumentReader.read(path: path)
        for object in root.children(named: "object") {
            let attributes = object.children(named: "attribute")
            if let property, !attributes.contains(where: { $0.attribute("name") == "name" && $0.text == property }) {
                continue
            }
            if let node = attributes.first(where: { $0.attribute("name") == attribute }) {
                return try XcodeMappingReader.bytes(ofBase64: node.text)
            }
        }
        throw RemodelError(.io, "no \(attribute) for \(property ?? "any object") in \(path)")
    }
}

/// A row of the source object itself, for evaluating translated expressions.
struct DictionaryRow: ExpressionRow {
    var values: [String: SQLiteValue]

    func value(of attribute: String, through relationships: [String]) -> SQLiteValue {
        relationships.isEmpty ? values[attribute] ?? .null : .null
    }

    func count(of relationship: String, through relationships: [String]) -> SQLiteValue { .null }
}
