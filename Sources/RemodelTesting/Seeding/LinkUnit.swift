import Remodel

/// The links of one ``LinkRule`` for given object counts, as a formula
/// rather than a table: either side's links of any object are computed when
/// that object is written, so memory does not grow with the store.
///
/// Sources and targets are shuffled into positions. Source position `p` gets
/// `k(p)` links (its count, drawn per object within the allowed range) to the
/// target positions from `⌊p·d/s⌋` on (`s` sources, `d` targets), so every
/// target gets between `⌊k_min·s/d⌋` and `⌈k_max·s/d⌉` links; a target's
/// sources are found by looking at the few buckets of positions that can reach
/// it. Where the inverse sets no bounds, the start is `⌊p²·d/s²⌋` instead, so
/// a few targets get many links and many get none or one, as in real data.
/// A relationship that is its own inverse links positions symmetrically
/// (pairs, or a ring of neighbours).
struct LinkUnit {
    enum Shape: Equatable {
        /// Forward counts in `low...high`; `sameSet` when sources and targets are the same objects
        /// (links go to the positions after the source's own), `overlap` when they share some; `skewed`
        /// for uneven numbers of links per target.
        case spread(low: Int, high: Int, sameSet: Bool, overlap: Bool, skewed: Bool)
        /// Positions `2m` and `2m+1` linked to each other (all pairs when `required`).
        case pairs(required: Bool)
        /// Each position linked to its `low` nearest neighbours on each side, and up to `high`.
        case ring(low: Int, high: Int)
    }

    let rule: LinkRule
    let sources: ObjectSet
    let targets: ObjectSet
    let shape: Shape
    private let salt: UInt64
    private let sourceOrder: AffinePermutation
    private let targetOrder: AffinePermutation

    init(rule: LinkRule, sources: ObjectSet, targets: ObjectSet, shape: Shape, seedNumber: UInt64) {
        self.rule = rule
        self.sources = sources
        self.targets = targets
        self.shape = shape
        salt = SeedRandom.mix([seedNumber, rule.hash])
        var random = SeedRandom(salt, 1)
        sourceOrder = AffinePermutation(count: UInt64(sources.count), random: &random)
        if case .spread(_, _, true, _, _) = shape {
            targetOrder = sourceOrder
        } else {
            targetOrder = AffinePermutation(count: UInt64(targets.count), random: &random)
        }
    }

    private var s: Int { sources.count }
    private var d: Int { targets.count }

    // MARK: - Forward

    /// The targets (indices in ``targets``) of the source at `index`, in link order.
    func targets(ofSource index: Int) -> [Int] {
        let position = Int(sourceOrder.position(UInt64(index)))
        switch shape {
        case .spread:
            return targetPositions(ofSourcePosition: position).map { Int(targetOrder.index(UInt64($0))) }
        case .pairs, .ring:
            return neighbours(of: position).map { Int(sourceOrder.index(UInt64($0))) }
        }
    }

    /// The sources (indices in ``sources``) linking to the target at `index`, in link order.
    func sources(ofTarget index: Int) -> [Int] {
        guard case .spread(_, let high, let sameSet, let overlap, let skewed) = shape, s > 0, d > 0 else {
            return targets(ofSource: index)
        }
        let position = Int(targetOrder.position(UInt64(index)))
        var result: [Int] = []
        let reach = high + (overlap && !sameSet ? 1 : 0)
        for step in 0..<min(reach, d) {
            let bucket = ((position - step - (sameSet ? 1 : 0)) % d + d) % d
            for source in sourcePositions(inBucket: bucket, sameSet: sameSet, skewed: skewed)
            where targetPositions(ofSourcePosition: source).contains(position) {
                result.append(source)
            }
        }
        return result.map { Int(sourceOrder.index(UInt64($0))) }
    }

    /// Source positions whose first candidate target is `bucket`.
    private func sourcePositions(inBucket bucket: Int, sameSet: Bool, skewed: Bool) -> Range<Int> {
        if sameSet { return bucket..<(bucket + 1) }
        if skewed { return firstPosition(reaching: bucket)..<firstPosition(reaching: bucket + 1) }
        let lower = (bucket * s + d - 1) / d
        let upper = ((bucket + 1) * s + d - 1) / d
        return lower..<min(upper, s)
    }

    /// The first target position of source position `p`.
    private func start(ofSourcePosition p: Int, sameSet: Bool, skewed: Bool) -> Int {
        if sameSet { return p + 1 }
        guard skewed else { return p * d / s }
        let square = UInt64(p) * UInt64(p)
        let total = UInt64(s) * UInt64(s)
        return Int(total.dividingFullWidth(square.multipliedFullWidth(by: UInt64(d))).quotient)
    }

    /// The smallest source position whose skewed start is at least `bucket` (`s` when there is none); the
    /// start grows with the position, so a float estimate is corrected by exact steps.
    private func firstPosition(reaching bucket: Int) -> Int {
        guard bucket < d else { return s }
        var position = min(s, Int((Double(s) * (Double(bucket) / Double(d)).squareRoot()).rounded(.up)))
        while position > 0 && start(ofSourcePosition: position - 1, sameSet: false, skewed: true) >= bucket {
            position -= 1
        }
        while position < s && start(ofSourcePosition: position, sameSet: false, skewed: true) < bucket { position += 1 }
        return position
    }

    private func degree(ofSourcePosition position: Int, low: Int, high: Int) -> Int {
        guard high > low else { return low }
        var random = SeedRandom(salt, 2, UInt64(position))
        if low == 0 && random.chance(1, in: 5) { return 0 }
        let floor = max(low, 1)
        return floor + random.index(high - floor + 1)
    }

    private func targetPositions(ofSourcePosition position: Int) -> [Int] {
        guard case .spread(let low, let high, let sameSet, let overlap, let skewed) = shape, d > 0 else { return [] }
        let count = degree(ofSourcePosition: position, low: low, high: high)
        guard count > 0 else { return [] }
        let start = start(ofSourcePosition: position, sameSet: sameSet, skewed: skewed)
        var own: Int?
        if overlap && !sameSet {
            let pk = sources.primaryKey(at: Int(sourceOrder.index(UInt64(position))))
            own = targets.index(of: pk).map { Int(targetOrder.position(UInt64($0))) }
        }
        var result: [Int] = []
        var step = 0
        while result.count < count && step < d {
            let candidate = (start + step) % d
            if candidate != own { result.append(candidate) }
            step += 1
        }
        return result
    }

    // MARK: - A relationship that is its own inverse

    private func neighbours(of position: Int) -> [Int] {
        switch shape {
        case .pairs(let required):
            let partner = position ^ 1
            guard partner < s, required || pairIsLinked(position / 2) else { return [] }
            return [partner]
        case .ring(let low, let high):
            var result: [Int] = []
            for distance in 1...max(high, 1) where distance <= high {
                let after = (position + distance) % s
                let before = ((position - distance) % s + s) % s
                if distance <= low || ringEdge(from: position, distance: distance) { result.append(after) }
                if distance <= low || ringEdge(from: before, distance: distance) { result.append(before) }
            }
            return result
        case .spread:
            return []
        }
    }

    private func pairIsLinked(_ pair: Int) -> Bool {
        var random = SeedRandom(salt, 3, UInt64(pair))
        return random.chance(3, in: 4)
    }

    /// Whether the optional ring edge from `position` to `position + distance` is there (the same answer from both ends).
    private func ringEdge(from position: Int, distance: Int) -> Bool {
        var random = SeedRandom(salt, 4, UInt64(position), UInt64(distance))
        return random.chance(1, in: 2)
    }
}
