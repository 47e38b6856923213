import Remodel

/// One part of a fleet spread over machines or processes: shard `index` of `count` takes every
/// `count`-th store of the list sorted byte by byte (as `LC_ALL=C sort` sorts it), from the
/// `index`-th (0-based), so shards given the same list, in any order, cover it exactly once.
///
/// `I/N` on the command line; either part may be `auto`, taken from the environment of the usual job
/// runners: a Kubernetes indexed Job's `JOB_COMPLETION_INDEX` (`I` only: give `N`, the Job's
/// completions), or a Slurm job array's `SLURM_ARRAY_TASK_ID` (minus `SLURM_ARRAY_TASK_MIN`) and
/// `SLURM_ARRAY_TASK_COUNT`. `auto` alone is `auto/auto`.
package struct FleetShard: Sendable, Hashable {
    /// This shard, from 0.
    package var index: Int
    /// The number of shards.
    package var count: Int

    /// A shard description that cannot be used, with the sentence to show.
    package struct ParseError: Error, CustomStringConvertible {
        /// What is wrong and how to write it.
        package var description: String
    }

    /// Shard `index` of `count`.
    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Reads `I/N`, `auto/N`, `I/auto` or `auto`, taking `auto` parts from `environment`.
    package init(parsing text: String, environment: [String: String]) throws(ParseError) {
        let parts =
            text == "auto"
            ? ["auto", "auto"] : text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else {
            throw ParseError(
                description: "--shard takes I/N (shard I of N, from 0), e.g. 0/4, or auto/N or auto; got \(text)")
        }
        let index = try Self.number(parts[0], auto: Self.environmentIndex(environment), what: "I", in: text)
        let count = try Self.number(parts[1], auto: Self.environmentCount(environment), what: "N", in: text)
        guard count >= 1, index >= 0, index < count else {
            throw ParseError(description: "--shard \(text) is shard \(index) of \(count): I must be from 0 to N - 1")
        }
        self.init(index: index, count: count)
    }

    /// The paths of this shard, in their given order.
    package func select(_ paths: [String]) -> [String] {
        let positions = Dictionary(
            paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.enumerated().map { ($1, $0) },
            uniquingKeysWith: { first, _ in first })
        return paths.filter { (positions[$0] ?? 0) % count == index }
    }

    private static func number(_ part: String, auto: Int?, what: String, in text: String) throws(ParseError) -> Int {
        if part == "auto" {
            guard let auto else {
                throw ParseError(
                    description: what == "I"
                        ? "--shard \(text): no JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID in the environment to take I from; give it, as I/N"
                        : "--shard \(text): no SLURM_ARRAY_TASK_COUNT in the environment to take N from; give it, as auto/N"
                )
            }
            return auto
        }
        guard let value = Int(part) else {
            throw ParseError(
                description: "--shard takes I/N (shard I of N, from 0), e.g. 0/4, or auto/N or auto; got \(text)")
        }
        return value
    }

    private static func environmentIndex(_ environment: [String: String]) -> Int? {
        if let index = environment["JOB_COMPLETION_INDEX"].flatMap({ Int($0) }) { return index }
        guard let task = environment["SLURM_ARRAY_TASK_ID"].flatMap({ Int($0) }) else { return nil }
        return task - (environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0)
    }

    private static func environmentCount(_ environment: [String: String]) -> Int? {
        environment["SLURM_ARRAY_TASK_COUNT"].flatMap { Int($0) }
    }
}
