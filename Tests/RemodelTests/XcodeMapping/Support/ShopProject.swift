import Foundation

@testable import Remodel
@testable import RemodelModel
@testable import RemodelProject

/// A small project on disk for Xcode mapping model tests: `Shop.xcdatamodeld` with versions
/// `Shop` and `Shop 2`, and a folder for mapping models beside it.
///
/// `Shop` → `Shop 2`: Item's `name` becomes `title`, `price` goes Double → Decimal, `active`
/// Boolean → Integer 16, `tags` becomes `labels`; Note is removed.
final class ShopProject {
    let folder: TemporaryFolder
    var bundlePath: String { folder.path + "/Shop.xcdatamodeld" }
    var mappings: String { folder.path + "/Mappings" }

    static let version1 = """
        <entity name="Item">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="price" optional="YES" attributeType="Double"/>
            <attribute name="count" optional="YES" attributeType="Integer 32"/>
            <attribute name="active" optional="YES" attributeType="Boolean"/>
            <attribute name="code" optional="YES" attributeType="String"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
        <entity name="Note">
            <attribute name="text" optional="YES" attributeType="String"/>
        </entity>
        """

    static let version2 = """
        <entity name="Item">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="price" optional="YES" attributeType="Decimal"/>
            <attribute name="count" optional="YES" attributeType="Integer 64"/>
            <attribute name="active" optional="YES" attributeType="Integer 16"/>
            <attribute name="code" optional="YES" attributeType="String"/>
            <relationship name="labels" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="labels" inverseEntity="Item"/>
        </entity>
        """

    init() throws {
        folder = try TemporaryFolder()
        for (name, entities) in [("Shop", Self.version1), ("Shop 2", Self.version2)] {
            let directory = bundlePath + "/" + name + ".xcdatamodel"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            \(entities)
            </model>

            """.write(toFile: directory + "/contents", atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
    }

    func bundle() throws -> ModelBundle { try ModelBundle(contentsOf: bundlePath) }

    /// The snapshot Xcode would store for a version.
    func snapshot(_ version: String) throws -> ModelSnapshot {
        ModelSnapshot(version: try require(try bundle().version(named: version)))
    }

    /// Writes a mapping model into the mappings folder; returns the path of its `xcmapping.xml`.
    @discardableResult
    func write(_ fixture: XcodeMappingFixture, name: String = "ShopToShop2") throws -> String {
        try fixture.write(in: mappings, name: name)
    }

    /// Every diagnostic of `remodel validate` on the project, the folder's path cut to `…`.
    func validate(registeredPolicyClasses: Set<String> = []) throws -> [String] {
        let report = try ProjectValidation.validate(
            paths: [bundlePath, mappings], registeredPolicyClasses: registeredPolicyClasses)
        return report.diagnostics.map { $0.description.replacingOccurrences(of: folder.path, with: "…") }
    }
}

/// Makes `#require` usable outside a test body for optionals that must be there.
private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw RemodelError(.invalidModel, "missing value") }
    return value
}
