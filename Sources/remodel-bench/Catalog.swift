/// Every scenario the benchmark knows: the model whose generated store it runs on, what its time is
/// compared with and the ratio it should stay under (issue 11's targets).
struct Scenario {
    let name: String
    /// The model of the store it runs on; `nil` for the scenarios that generate nothing per size.
    let source: SourceModel?
    /// The scenario whose time it is divided by in the same run, and the ratio it should stay under.
    var baseline: String?
    var target: Double?
    /// The library's own scenarios: their peak memory is held to ``Catalog/memoryTargetMiB``.
    var library = false
    /// Run when `--only` does not name it.
    var byDefault = true
    /// The chain scenarios' model, migrated from its first version (or over its last step alone, `lastStep`)
    /// to its current one; `nil` for the others.
    var chain: ChainModel?
    var lastStep = false

    /// The peak memory its runs should stay under.
    var memoryTargetMiB: Double { chain == nil ? Catalog.memoryTargetMiB : Catalog.chainMemoryTargetMiB }
}

enum Catalog {
    /// Peak memory every library scenario should stay under, at every size (GRDB's peak on the same change is 25 MiB).
    static let memoryTargetMiB = 24.0
    /// Peak memory of any migration of a real chain (issue 20).
    static let chainMemoryTargetMiB = 64.0
    /// A chain of any length costs at most this many times one step of the same model on the same data (issue 20).
    static let chainTarget = 3.0
    /// `Store.launch` and `status` on a current store of a bundle of many versions.
    static let launchTargetSeconds = 0.020

    static let all: [Scenario] = [
        Scenario(name: "migrate", source: .library, baseline: "limit", target: 1.15, library: true),
        Scenario(name: "limit", source: .library),
        Scenario(name: "migrate3", source: .library, baseline: "migrate", target: 1.3, library: true),
        Scenario(name: "limit3", source: .library, baseline: "limit"),
        Scenario(name: "policy", source: .library, library: true),
        Scenario(
            name: "addAttribute", source: .addAttribute, baseline: "addAttributeLimit", target: 1.5, library: true),
        Scenario(name: "addAttributeLimit", source: .addAttribute),
        Scenario(name: "oneOfTen", source: .ten, baseline: "oneOfTenLimit", target: 1.3, library: true),
        Scenario(name: "oneOfTenLimit", source: .ten),
        Scenario(name: "launch", source: nil, library: true),
        Scenario(name: "validate", source: nil),
        Scenario(name: "readVersions", source: nil, byDefault: false),
        Scenario(name: "fleet", source: nil, byDefault: false),
        Scenario(
            name: "longHistory", source: nil, baseline: "longHistoryStep", target: chainTarget, library: true,
            byDefault: false, chain: .history),
        Scenario(
            name: "longHistoryStepByStep", source: nil, baseline: "longHistoryStep", library: true, byDefault: false,
            chain: .history),
        Scenario(
            name: "longHistoryStep", source: nil, library: true, byDefault: false, chain: .history, lastStep: true),
        Scenario(
            name: "wireChain", source: nil, baseline: "wireStep", target: chainTarget, library: true, byDefault: false,
            chain: .wire),
        Scenario(
            name: "wireChainStepByStep", source: nil, baseline: "wireStep", library: true, byDefault: false,
            chain: .wire),
        Scenario(name: "wireStep", source: nil, library: true, byDefault: false, chain: .wire, lastStep: true),
        Scenario(name: "coreData", source: nil, byDefault: false),
    ]

    static var names: [String] { all.map(\.name) }
    static var defaultNames: [String] { all.filter(\.byDefault).map(\.name) }

    static func scenario(named name: String) -> Scenario? {
        all.first { $0.name == name }
    }
}
