import Foundation
import Testing

@testable import Remodel
@testable import RemodelGeneration

/// The one name rule of generated records (docs/TYPED-ACCESS.md, "Names"), and every model of the corpus run
/// through it. The corpus's generated code is compiled and round-tripped by scripts/generated-records-check.sh.
struct RecordNamesTests {
    @Test func typeNamesThatClashGetEntityAppended() {
        var types = SwiftNames.Allocator(reserved: SwiftNames.reservedTypeNames)
        let names = [
            "Task", "Data", "Date", "Notification", "Type", "Protocol", "Error", "Result", "Row", "Column",
            "Database", "Book", "class", "9Lives", "Café-Bar", "Task",
        ]
        #expect(
            names.map { types.claimType($0) } == [
                "TaskEntity", "DataEntity", "DateEntity", "NotificationEntity", "TypeEntity", "ProtocolEntity",
                "ErrorEntity", "ResultEntity", "RowEntity", "ColumnEntity", "DatabaseEntity", "Book", "classEntity",
                "_9Lives", "Caf__Bar", "TaskEntity_2",
            ])
    }

    @Test func memberNamesThatClashGetAnUnderscore() {
        var members = SwiftNames.Allocator(reserved: SwiftNames.reservedMemberNames)
        let names = ["default", "class", "operator", "self", "id", "insert", "hashValue", "title", "my-name", "id_"]
        #expect(
            names.map { members.claimMember($0) } == [
                "default_", "class_", "operator_", "self_", "id_", "insert_", "hashValue_", "title", "my_name", "id__2",
            ])
    }

    @Test func schemaNameKeepsLettersDigitsAndUnderscores() {
        #expect(SwiftNames.schemaTypeName("Advanced.EvolutionDemo.V1") == "AdvancedEvolutionDemoV1Schema")
        #expect(SwiftNames.schemaTypeName("Core Data") == "CoreDataSchema")
        #expect(SwiftNames.schemaTypeName("2Go") == "_2GoSchema")
    }

    /// Every model of the corpus: types and members are valid, unique Swift names outside the reserved sets, no
    /// type of a generated record file declares a member twice, and two runs give the same bytes.
    @Test(.enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func everyCorpusModelGetsValidUniqueNames() throws {
        var search = ModelSearch()
        try search.add(ValidationSupport.corpus.path)
        var checked = 0
        var hierarchies = 0
        for model in search.models {
            let bundle = try #require(ModelReader.read(path: model.path).bundle, "\(model.path) does not read")
            let shape = RecordShape(
                layout: StoreLayout(version: bundle.currentVersion), modelName: bundle.name)
            let types =
                shape.entities.map(\.typeName) + shape.tables.filter(\.isHierarchy).map(\.recordTypeName)
                + [shape.schemaTypeName]
            #expect(Set(types).count == types.count, "\(model.path): two types share a name")
            for name in types {
                #expect(
                    Self.isIdentifier(name) && !SwiftNames.reservedTypeNames.contains(name), "\(model.path): \(name)")
            }
            for entity in shape.entities {
                let members =
                    entity.attributes.map(\.swiftName) + entity.toOnes.map(\.swiftName)
                    + entity.toManys.map(\.swiftName)
                #expect(
                    Set(members).count == members.count, "\(model.path) \(entity.typeName): two members share a name")
                for name in members {
                    #expect(
                        Self.isIdentifier(name) && !SwiftNames.reservedMemberNames.contains(name),
                        "\(model.path) \(entity.typeName).\(name)")
                }
            }
            hierarchies += shape.tables.filter(\.isHierarchy).count
            let generator = try RecordGenerator(bundle: bundle)
            let files = generator.files()
            #expect(files == generator.files())
            for file in files where !file.name.hasSuffix("Schema.swift") {
                let twice = RecordNamesPropertyTests.membersDeclaredTwicePerType(file.contents)
                #expect(twice.isEmpty, "\(model.path) \(file.name) declares \(twice) twice")
            }
            checked += 1
        }
        #expect(checked == 25)
        #expect(hierarchies > 0, "the corpus has models with inheritance")
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }
}
