import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// The binary property list decoder, from archives Xcode wrote and from hand-built lists of every kind.
struct BinaryPropertyListTests {
    @Test(
        .tags(.corpus), .skippable(.corpus),
        .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func readsTheConstantArchiveXcodeWrote() throws {
        let path = XcodeCorpus.mapping("JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V2.FromV1")
        let bytes = try XcodeCorpus.data(path, attribute: "valueexpressiondata", property: "hasHead")
        #expect(bytes.count == 290)
        let value = try BinaryPropertyList.decode(bytes)
        #expect(
            value
                == .dictionary([
                    "$version": .integer(100_000), "$archiver": .string("NSKeyedArchiver"),
                    "$top": .dictionary(["root": .uid(1)]),
                    "$objects": .array([
                        .string("$null"),
                        .dictionary(["NSConstantValue": .uid(2), "NSExpressionType": .integer(0), "$class": .uid(3)]),
                        .bool(true),
                        .dictionary([
                            "$classname": .string("NSConstantValueExpression"),
                            "$classes": .array([
                                .string("NSConstantValueExpression"), .string("NSExpression"), .string("NSObject"),
                            ]),
                        ]),
                    ]),
                ]))
    }

    @Test(
        .tags(.corpus), .skippable(.corpus),
        .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func readsTheKeyPathArchiveXcodeWrote() throws {
        let path = XcodeCorpus.mapping("JohnEstropia__CoreStore", "Advanced.EvolutionDemo.V2.FromV1")
        let archive = try KeyedArchive(
            bytes: try XcodeCorpus.data(path, attribute: "valueexpressiondata", property: "numberOfFlippers"))
        #expect(archive.objects.count == 12)
        guard case .object(let root) = try archive.root() else {
            Issue.record("the root is not an object")
            return
        }
        #expect(root.className == "NSKeyPathExpression")
        #expect(try root.value("NSSelectorName")?.string == "valueForKeyPath:")
        #expect(root.integer("NSExpressionType") == 4)
        guard case .object(let operand)? = try root.value("NSOperand"),
            case .object(let arguments)? = try root.value("NSArguments")
        else {
            Issue.record("no operand or arguments")
            return
        }
        #expect(operand.className == "NSVariableExpression")
        #expect(try operand.value("NSVariable")?.string == "source")
        #expect(arguments.className == "NSMutableArray")
        guard case .object(let specifier)? = try arguments.elements().first else {
            Issue.record("no key path specifier")
            return
        }
        #expect(try specifier.value("NSKeyPath")?.string == "numberOfFlagella")
    }

    /// The model snapshots are the largest archives in the corpus (DashSync's are over a megabyte each).
    @Test(
        .tags(.corpus), .skippable(.corpus),
        .enabled(if: ValidationSupport.corpusExists, "the shared corpus is not beside the repository"))
    func readsEveryModelSnapshotOfTheCorpus() throws {
        var entities: [String] = []
        for (repository, name) in XcodeCorpus.all {
            let path = XcodeCorpus.mapping(repository, name)
            for side in ["sourcemodeldata", "destinationmodeldata"] {
                let snapshot = try ModelSnapshot(archive: try XcodeCorpus.data(path, attribute: side))
                entities.append("\(name) \(side): \(snapshot.entities.count)")
            }
        }
        #expect(
            entities == [
                "Advanced.EvolutionDemo.V1.FromV2 sourcemodeldata: 1",
                "Advanced.EvolutionDemo.V1.FromV2 destinationmodeldata: 1",
                "Advanced.EvolutionDemo.V2.FromV1 sourcemodeldata: 1",
                "Advanced.EvolutionDemo.V2.FromV1 destinationmodeldata: 1",
                "OrganismV2ToV3 sourcemodeldata: 1", "OrganismV2ToV3 destinationmodeldata: 1",
                "OrganismV3ToV2 sourcemodeldata: 1",
                "OrganismV3ToV2 destinationmodeldata: 1", "migration2.54 sourcemodeldata: 18",
                "migration2.54 destinationmodeldata: 18",
                "MappingFrom6To7Model sourcemodeldata: 35", "MappingFrom6To7Model destinationmodeldata: 37",
                "V2toV3 sourcemodeldata: 4",
                "V2toV3 destinationmodeldata: 5",
            ])
    }

    static let everyKind: PropertyListValue = .dictionary([
        "null": .null, "yes": .bool(true), "no": .bool(false),
        "integers": .array([
            .integer(0), .integer(255), .integer(256), .integer(65_535), .integer(65_536), .integer(4_294_967_296),
            .integer(-1), .integer(.min), .integer(.max),
        ]),
        "reals": .array([.real(0.5), .real(-0.0), .real(1e300), .real(.infinity)]),
        "date": .date(-978_307_200.25),
        "data": .data([0, 1, 2, 255]), "long data": .data(Array(repeating: 7, count: 300)),
        "ascii": .string("valueForKeyPath:"), "unicode": .string("Ünïcødé ✓ 👍🏽"),
        "long": .string(String(repeating: "x", count: 40)),
        "empty": .string(""), "uids": .array([.uid(0), .uid(255), .uid(70_000)]),
        "nested": .array([.array([]), .dictionary([:]), .array([.dictionary(["k": .array([.integer(1)])])])]),
        "many": .array((0..<20).map { .integer(Int64($0)) }),
    ])

    @Test(arguments: [
        PropertyListWriter.Options(), PropertyListWriter.Options(floats: true, utf16: true),
        PropertyListWriter.Options(referenceSize: 3),
    ])
    func handBuiltListsOfEveryKindRoundTrip(options: PropertyListWriter.Options) throws {
        let bytes = PropertyListWriter.encode(Self.everyKind, options: options)
        #expect(try BinaryPropertyList.decode(bytes) == Self.everyKind)
    }

    @Test func damagedListsAreRefusedWithTheReason() throws {
        let good = PropertyListWriter.encode(.array([.string("a"), .integer(1)]))
        func failure(_ bytes: [UInt8]) -> String {
            do {
                _ = try BinaryPropertyList.decode(bytes)
                return "decoded"
            } catch {
                return error.message
            }
        }
        #expect(failure(Array("bplist01".utf8) + good.dropFirst(8)).contains("does not start with 'bplist00'"))
        #expect(failure(Array(good.prefix(20))).contains("too short"))
        var tableOutside = good
        tableOutside[tableOutside.count - 1] = 0xFF
        #expect(failure(tableOutside).contains("the trailer is inconsistent"))
        var badReference = good
        // The array's first reference (right after its marker at byte 8) points past the objects.
        badReference[9] = 9
        #expect(failure(badReference) == "object 0: it refers to object 9, but there are 3 objects")
        var unknownMarker = good
        unknownMarker[11] = 0x70
        #expect(failure(unknownMarker).contains("unknown marker 0x70"))
        // An array that contains itself.
        var cycle = PropertyListWriter.encode(.array([.array([])]))
        cycle[9] = 0
        #expect(failure(cycle) == "object 0: it contains itself")
        // A string whose length runs past the objects.
        var long = PropertyListWriter.encode(.string("abc"))
        long[8] = 0x5E
        #expect(failure(long).contains("run past the end of the objects"))
    }

    @Test func anObjectSharedByManyContainersIsDecodedOnce() throws {
        // 40 levels, each an array holding the level below twice: 2^40 paths, 41 objects.
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.append(bytes.count)
        bytes += [0x10, 1]
        for level in 1...40 {
            offsets.append(bytes.count)
            bytes += [0xA2, UInt8(level - 1), UInt8(level - 1)]
        }
        let table = bytes.count
        for offset in offsets { bytes += PropertyListWriter.bigEndian(UInt64(offset), size: 1) }
        bytes +=
            [0, 0, 0, 0, 0, 0, 1, 1] + PropertyListWriter.bigEndian(41, size: 8)
            + PropertyListWriter.bigEndian(40, size: 8)
            + PropertyListWriter.bigEndian(UInt64(table), size: 8)
        let started = Date()
        guard case .array(let top) = try BinaryPropertyList.decode(bytes) else {
            Issue.record("not an array")
            return
        }
        #expect(top.count == 2)
        #expect(Date().timeIntervalSince(started) < 1)
    }
}
