import Foundation
import Testing

/// Runs the built `remodel` binary end to end.
struct ValidateCommandTests {
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try RemodelProcess.run(arguments)
        return (result.status, result.output)
    }

    @Test func reportsABrokenFileAndExitsWithOne() throws {
        let path = "Tests/RemodelTests/Fixtures/Validation/Broken.xcdatamodel"
        let (status, output) = try run(["validate", path])
        #expect(status == 1)
        #expect(
            output == """
                \(path)/contents:4:61: error: attribute 'Person.age' has type 'Integer 12', which is not a Core Data attribute type; use one of Integer 16, Integer 32, Integer 64, Decimal, Double, Float, String, Boolean, Date, Binary, UUID, URI, Transformable, ObjectID, Composite [unknown-attribute-type]
                Checked 1 model (1 version): 1 error.

                """)
    }

    @Test func exitsWithZeroOnTheSampleModels() throws {
        let (status, output) = try run(["validate", "Models"])
        #expect(status == 0)
        #expect(output == "Checked 2 models (5 versions): no problems.\n")
    }

    @Test func exitsWithTwoWhenThePathIsMissingOrAnOptionIsBad() throws {
        #expect(try run(["validate", "NoSuchFolder"]).status == 2)
        #expect(try run(["validate", "Models", "--format", "xml"]).status != 0)
    }

    @Test func strictFailsOnWarnings() throws {
        let path = "Tests/RemodelTests/Fixtures/Validation/Twins.xcdatamodeld"
        #expect(try run(["validate", path]).status == 0)
        #expect(try run(["validate", path, "--strict"]).status == 1)
    }
}
