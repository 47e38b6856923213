import Foundation

/// The command line of the parent process.
struct Options {
    static let allScenarios = Catalog.names
    /// Every scenario but `fleet`, which runs only when named (it takes minutes).
    static let defaultScenarios = Catalog.defaultNames

    var sizes: [Int] = [100_000, 1_000_000]
    var scenarios: [String] = Options.defaultScenarios
    var fleet = FleetBench.Settings()
    var verify = false
    var keep = false
    var trace = true
    /// `--statements N`: each child lists its N longest statements on standard error.
    var statements: Int?
    var repeats = 1
    /// `--memory-limit MiB`: each scenario's child runs in a memory cgroup of this many bytes (page cache included).
    var memoryLimitBytes: Int?
    /// `--cold`: each run's copy of the store is dropped from the page cache before its child starts.
    var cold = false
    /// `--source-store PATH`: stores generated before (kept with `--keep`), by `<model>-<objects>` as the
    /// benchmark names them (`BenchLibrary-10737418`), used instead of generating them again.
    var sourceStores: [String: String] = [:]

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            func next() throws -> String {
                index += 1
                guard index < arguments.count else { throw BenchError("\(argument) needs a value") }
                return arguments[index]
            }
            switch argument {
            case "--objects":
                sizes = try next().split(separator: ",").map { part in
                    guard let size = Int(part.replacingOccurrences(of: "_", with: "")), size >= 0 else {
                        throw BenchError("--objects takes sizes separated by commas")
                    }
                    return size
                }
            case "--gb":
                sizes = try next().split(separator: ",").map { part in
                    guard let gigabytes = Double(part), gigabytes > 0 else {
                        throw BenchError("--gb takes store sizes in GB (2^30 bytes) separated by commas")
                    }
                    return BenchModel.objects(forBytes: gigabytes * 1_073_741_824)
                }
            case "--memory-limit":
                guard let mebibytes = Int(try next()), mebibytes >= 16 else {
                    throw BenchError("--memory-limit takes MiB, 16 or more")
                }
                memoryLimitBytes = mebibytes << 20
                cold = true
            case "--cold":
                cold = true
            case "--source-store":
                let path = try next()
                let name = String(path.split(separator: "/").last ?? "")
                guard name.hasSuffix(".sqlite"), FileManager.default.fileExists(atPath: path) else {
                    throw BenchError(
                        "--source-store takes a store the benchmark generated, named <model>-<objects>.sqlite")
                }
                sourceStores[String(name.dropLast(".sqlite".count))] = path
            case "--only":
                scenarios = try next().split(separator: ",").map(String.init)
                for name in scenarios where !Self.allScenarios.contains(name) {
                    throw BenchError(
                        "unknown scenario \(name); the scenarios are \(Self.allScenarios.joined(separator: ", "))")
                }
            case "--stores", "--store-objects", "--jobs":
                guard let count = Int(try next().replacingOccurrences(of: "_", with: "")), count >= 1 else {
                    throw BenchError("\(argument) takes a count of at least 1")
                }
                switch argument {
                case "--stores": fleet.stores = count
                case "--store-objects": fleet.objects = count
                default: fleet.jobs = count
                }
            case "--verify":
                verify = true
            case "--repeat":
                guard let count = Int(try next()), count >= 1 else {
                    throw BenchError("--repeat takes a count of at least 1")
                }
                repeats = count
            case "--keep":
                keep = true
            case "--no-trace":
                trace = false
            case "--statements":
                guard let count = Int(try next()), count >= 1 else {
                    throw BenchError("--statements takes a count of at least 1")
                }
                statements = count
            case "-h", "--help":
                print(Self.usage)
                exit(0)
            default:
                throw BenchError("unknown argument \(argument)\n\(Self.usage)")
            }
            index += 1
        }
    }

    static let usage = """
        usage: swift run -c release remodel-bench [--objects 100000,1000000 | --gb 1,3.6] [--only migrate,limit,…] [--repeat N] [--verify] [--keep] [--no-trace]
                                               [--memory-limit MiB] [--cold]
                                               [--only fleet [--stores 2000] [--store-objects 1000] [--jobs 2]]
          --objects  object counts of the generated source stores, every entity's objects counted (default 100000,1000000);
                     0 is an empty store, for the chain scenarios (the others need 1000 or more)
          --gb       store sizes in GB (2^30 bytes) instead of object counts: BenchLibrary's stores of about that size
          --memory-limit MiB  run each scenario's child in a memory cgroup of that limit (page cache included), its
                     copy of the store dropped from the page cache first (implies --cold): a store larger than the cache
          --cold     drop each run's copy of the store from the page cache before its child starts
          --source-store PATH  use a store generated before (kept with --keep; named <model>-<objects>.sqlite, e.g.
                     BenchLibrary-10737418.sqlite) instead of generating it again: give --objects that count too
          --only     scenarios to run: \(allScenarios.joined(separator: ", "))
                     (default: all but fleet and the chains: longHistory…, wireChain…, wireStep)
          --repeat   run each scenario N times (each on a fresh copy) and report the median run
          --verify   check that the library's v1→v2 and v1→v4 stores hold exactly what the hand-written SQL produces
          --stores, --store-objects, --jobs   the fleet scenario (--only fleet): stores, objects each, jobs (default 2000, 1000, 2)
          --keep     keep the temporary folder $TMPDIR/remodel-bench-* (/tmp when TMPDIR is not set)
          --statements N  each scenario's child lists its N longest SQL statements on standard error
          --no-trace do not trace SQLite statements in the children (no copy/schema/indexes split, no cache figures)
        """

    static func value(of flag: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
