internal import Foundation
public import Remodel

/// Writes valid, deterministic synthetic data for one version of a model, in
/// the JSON export format that `remodel import`, `remodel create --seed`,
/// ``/Remodel/Store/create(at:bundle:version:seed:)-(String,_,_,_)`` and ``/Remodel/Store/importJSON(from:)-(String)``
/// read.
///
/// Every concrete entity gets objects (abstract entities none); every stored
/// attribute a value of its type that respects optionality, minimum and
/// maximum (values, string lengths in Unicode scalars, binary sizes, dates),
/// regular expressions of the common subset (literals, classes, quantifiers,
/// groups, alternation, anchors), defaults and uniqueness constraints
/// (compound ones too); every relationship links consistent on both sides,
/// within its minimum and maximum counts, ordered ones in an order of their
/// own, many-to-many, self-relationships and hierarchies included. Where a
/// rule cannot be satisfied, ``SeedPlan/problems`` names the entity and
/// property and says what was done instead (fewer objects, an empty value),
/// so the data written always imports.
///
/// The same seed number gives byte-identical JSON on every platform: values
/// come from SplitMix64 generators seeded by the seed number, the entity and
/// the object's `_pk`. Writing streams: one object is in memory at a time
/// (only a uniqueness constraint whose values cannot be enumerated, such as a
/// regular expression, keeps its distinct values).
///
/// For example:
/// ```swift
/// let bundle = try ModelBundle(contentsOf: "Models/Library.xcdatamodeld")
/// let generator = try SeedGenerator(bundle: bundle, version: "Library")
/// let plan = try generator.write(objects: 100, seedNumber: 7, to: "seed.json")
/// for problem in plan.problems { print("warning: \(problem)") }
/// let store = try Store.create(at: "library.sqlite", bundle: bundle, version: "Library", seed: "seed.json")
/// ```
public struct SeedGenerator: Sendable {
    /// The version the data is for.
    public let version: ModelVersion
    /// Objects per entity for entities that should not get the number passed to `objects:`.
    public var counts: [String: Int]

    /// A generator for a version.
    /// - Parameters:
    ///   - version: The model version.
    ///   - counts: Objects of particular concrete entities, overriding the number given when generating.
    public init(version: ModelVersion, counts: [String: Int] = [:]) {
        self.version = version
        self.counts = counts
    }

    /// A generator for a version of a bundle, given by name.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/invalidModel`` when the bundle
    ///   has no such version, or the version has errors (``/RemodelModel/ModelBundle/requireNoErrors(inVersions:)``).
    public init(bundle: ModelBundle, version name: String, counts: [String: Int] = [:]) throws(RemodelError) {
        guard let version = bundle.version(named: name) else {
            let names = bundle.versions.map { "\"\($0.name)\"" }.joined(separator: ", ")
            throw RemodelError(
                .invalidModel, "model \"\(bundle.name)\" has no version \"\(name)\"; its versions are \(names)",
                path: bundle.path)
        }
        try bundle.requireNoErrors(inVersions: [name])
        self.init(version: version, counts: counts)
    }

    /// What ``generate(objects:seedNumber:)`` writes: objects per entity, and the rules it cannot satisfy.
    ///
    /// For example:
    /// ```swift
    /// let plan = generator.plan(objects: 10)
    /// print(plan.counts["Person"] ?? 0, plan.problems)
    /// ```
    /// - Parameters:
    ///   - objects: Objects of each concrete entity (before the model's rules lower some).
    ///   - seedNumber: The seed number (it can change how many distinct values a regular expression gives).
    public func plan(objects: Int, seedNumber: UInt64 = 1) -> SeedPlan {
        Self.plan(of: planner(objects: objects, seedNumber: seedNumber))
    }

    /// The data as JSON text, in memory: for small counts and tests.
    ///
    /// For example:
    /// ```swift
    /// let json = SeedGenerator(version: bundle.currentVersion).generate(objects: 5, seedNumber: 1)
    /// ```
    /// - Parameters:
    ///   - objects: Objects of each concrete entity (before the model's rules lower some).
    ///   - seedNumber: The same number gives the same bytes.
    public func generate(objects: Int, seedNumber: UInt64 = 1) -> String {
        var output = JSONOutput()
        try? SeedWriter(planner: planner(objects: objects, seedNumber: seedNumber)).write(to: &output)
        return output.text
    }

    /// Writes the data to a file, streaming; the file is replaced only when it is complete.
    ///
    /// For example:
    /// ```swift
    /// let plan = try generator.write(objects: 1_000_000, seedNumber: 1, to: "big.json")
    /// ```
    /// - Parameters:
    ///   - objects: Objects of each concrete entity (before the model's rules lower some).
    ///   - seedNumber: The same number gives the same bytes.
    ///   - path: The JSON file to write.
    /// - Returns: What was written, with the rules that could not be satisfied.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/io`` when the file cannot be
    ///   written.
    @discardableResult
    public func write(objects: Int, seedNumber: UInt64 = 1, to path: String) throws(RemodelError) -> SeedPlan {
        let planner = planner(objects: objects, seedNumber: seedNumber)
        try FileSystem.writeAtomically(to: path) { (output: inout JSONOutput) throws(RemodelError) in
            try SeedWriter(planner: planner).write(to: &output)
        }
        return Self.plan(of: planner)
    }

    /// Writes the data to standard output, streaming.
    ///
    /// For example:
    /// ```swift
    /// let plan = try generator.writeToStandardOutput(objects: 10)
    /// ```
    /// - Returns: What was written, with the rules that could not be satisfied.
    /// - Throws: ``/RemodelModel/RemodelError`` with ``/RemodelModel/RemodelError/Code/io`` when the output cannot be
    ///   written.
    @discardableResult
    public func writeToStandardOutput(objects: Int, seedNumber: UInt64 = 1) throws(RemodelError) -> SeedPlan {
        let planner = planner(objects: objects, seedNumber: seedNumber)
        var output = JSONOutput(descriptor: STDOUT_FILENO, path: "<standard output>")
        try SeedWriter(planner: planner).write(to: &output)
        return Self.plan(of: planner)
    }

    private func planner(objects: Int, seedNumber: UInt64) -> SeedPlanner {
        SeedPlanner(version: version, objects: objects, overrides: counts, seedNumber: seedNumber)
    }

    private static func plan(of planner: SeedPlanner) -> SeedPlan {
        SeedPlan(counts: planner.counts, problems: planner.problems)
    }
}
