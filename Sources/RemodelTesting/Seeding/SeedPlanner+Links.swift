import Remodel

/// Object counts that every relationship's counts allow. First, a side with
/// too few objects for what the other side needs gets more (up to sixteen times
/// the number asked for); then each rule is checked against the objects on
/// both sides, and where its counts still cannot be met the side at fault gets
/// fewer objects (none, when nothing can help), until every rule fits. Counts
/// only go up in the first pass and only down in the second, so both end.
extension SeedPlanner {
    private enum Fit {
        case fits(LinkUnit.Shape)
        case limitSources(to: Int, String)
        case limitTargets(to: Int, String)
    }

    /// Lowers counts until every rule fits; returns each rule (chosen from the side that fits, when only the
    /// other side's choice fits) and its shape for the final counts.
    mutating func fitCounts(_ rules: [LinkRule]) -> [(LinkRule, LinkUnit.Shape)] {
        var raised = true
        while raised {
            raised = false
            for rule in rules {
                let s = rule.sourceKinds.reduce(0) { $0 + counts[$1, default: 0] }
                let d = rule.targetKinds.reduce(0) { $0 + counts[$1, default: 0] }
                let (sources, targets) = wanted(rule, sources: s, targets: d)
                if sources > s { raised = raise(rule.sourceKinds, to: sources) || raised }
                if targets > d { raised = raise(rule.targetKinds, to: targets) || raised }
            }
        }
        var reported: [String: Int] = [:]
        var shapes: [(LinkRule, LinkUnit.Shape)] = []
        var changed = true
        while changed {
            changed = false
            shapes = []
            for rule in rules {
                let s = rule.sourceKinds.reduce(0) { $0 + counts[$1, default: 0] }
                let d = rule.targetKinds.reduce(0) { $0 + counts[$1, default: 0] }
                let outcome = fit(rule, sources: s, targets: d)
                if case .fits(let shape) = outcome {
                    shapes.append((rule, shape))
                    continue
                }
                if let other = rule.swapped, case .fits(let shape) = fit(other, sources: d, targets: s) {
                    shapes.append((other, shape))
                    continue
                }
                switch outcome {
                case .fits:
                    continue
                case .limitSources(let total, let message):
                    report(rule.forward, message, &reported)
                    changed = reduce(rule.sourceKinds, to: min(total, s - 1)) || changed
                case .limitTargets(let total, let message):
                    report(rule.inverse ?? rule.forward, message, &reported)
                    changed = reduce(rule.targetKinds, to: min(total, d - 1)) || changed
                }
                break
            }
        }
        return shapes
    }

    /// Adds a problem for `side`, or updates the one it has: counts lowered in several rounds say the last word.
    private mutating func report(_ side: LinkRule.Side, _ message: String, _ reported: inout [String: Int]) {
        let problem = SeedProblem(entity: side.entity, property: side.relationship.name, message: message)
        if let index = reported[side.name] {
            problems[index] = problem
        } else {
            reported[side.name] = problems.count
            problems.append(problem)
        }
    }

    private func describe(_ kinds: [String], count: Int) -> String {
        let names = kinds.isEmpty ? "no objects" : kinds.joined(separator: ", ")
        return count == 0 ? "no \(names) objects are generated" : "\(count) objects of \(names) are generated"
    }

    /// The objects each side needs for the other side's counts to be met (at least the current ones).
    private func wanted(_ rule: LinkRule, sources s: Int, targets d: Int) -> (Int, Int) {
        let forward = rule.forward
        if rule.isReflexive {
            guard s > 0 else { return (s, d) }
            if (forward.maximum ?? Int.max) <= 1 { return (forward.minimum > 0 && s % 2 == 1 ? s + 1 : s, d) }
            return (max(s, 2 * ((forward.minimum + 1) / 2) + 1), d)
        }
        let sameSet = Set(rule.sourceKinds) == Set(rule.targetKinds)
        let overlap = !Set(rule.sourceKinds).isDisjoint(with: rule.targetKinds)
        let skew = overlap && !sameSet ? 1 : 0
        var targets = d
        var sources = s
        if s > 0 && forward.minimum > 0 {
            targets = max(targets, forward.minimum + (overlap ? 1 : 0))
            if let maximum = rule.targetMaximum, maximum - skew > 0 {
                targets = max(targets, (forward.minimum * s + maximum - skew - 1) / (maximum - skew))
            }
        }
        if d > 0 && rule.targetMinimum > 0, let maximum = forward.maximum, maximum > 0 {
            sources = max(sources, ((rule.targetMinimum + skew) * d + maximum - 1) / maximum)
        }
        return (sources, targets)
    }

    private func fit(_ rule: LinkRule, sources s: Int, targets d: Int) -> Fit {
        let forward = rule.forward
        let destination = forward.relationship.destinationEntity ?? ""
        if rule.isReflexive { return fitReflexive(rule, objects: s) }
        let sameSet = Set(rule.sourceKinds) == Set(rule.targetKinds)
        let overlap = !Set(rule.sourceKinds).isDisjoint(with: rule.targetKinds)
        let skewed = !sameSet && rule.targetMinimum == 0 && rule.targetMaximum == nil
        let empty = LinkUnit.Shape.spread(low: 0, high: 0, sameSet: sameSet, overlap: overlap, skewed: skewed)
        if s == 0 || d == 0 {
            if s > 0 && forward.minimum > 0 {
                let why =
                    rule.targetKinds.isEmpty
                    ? "\(destination) has no concrete entity among its kinds (it is abstract with no concrete sub-entity)"
                    : "no \(rule.targetKinds.joined(separator: ", ")) objects are generated"
                return .limitSources(
                    to: 0,
                    "requires at least \(forward.minimum) \(destination) object\(forward.minimum == 1 ? "" : "s"), and \(why); so \(describe(rule.sourceKinds, count: 0))"
                )
            }
            if d > 0 && rule.targetMinimum > 0, let inverse = rule.inverse {
                return .limitTargets(
                    to: 0,
                    "requires at least \(rule.targetMinimum) \(forward.entity) object\(rule.targetMinimum == 1 ? "" : "s"), and no \(rule.sourceKinds.joined(separator: ", ")) objects are generated; so \(describe(rule.targetKinds, count: 0)) (\(inverse.name))"
                )
            }
            return .fits(empty)
        }
        let skew = overlap && !sameSet ? 1 : 0
        let others = d - (overlap ? 1 : 0)
        let low = max(forward.minimum, rule.targetMinimum > 0 ? ((rule.targetMinimum + skew) * d + s - 1) / s : 0)
        var high = min(forward.maximum ?? (low + 3), others)
        if let targetMaximum = rule.targetMaximum { high = min(high, (targetMaximum - skew) * d / s) }
        if low <= high {
            return .fits(.spread(low: low, high: high, sameSet: sameSet, overlap: overlap, skewed: skewed))
        }
        if forward.minimum > others {
            return .limitSources(
                to: 0,
                "needs at least \(forward.minimum) different \(destination) objects\(overlap ? " besides itself" : ""), and there are \(others); so \(describe(rule.sourceKinds, count: 0)) (generate more objects)"
            )
        }
        if let targetMaximum = rule.targetMaximum, forward.minimum * s > (targetMaximum - skew) * d {
            let fitting = max(0, (targetMaximum - skew) * d / max(forward.minimum, 1))
            let limit =
                rule.inverse.map { "\($0.name) allows at most \(targetMaximum) each" }
                ?? "a uniqueness constraint lets each \(destination) be chosen once"
            return .limitSources(
                to: fitting,
                "needs \(forward.minimum) \(destination) object\(forward.minimum == 1 ? "" : "s") each and \(limit), so \(d) \(destination) objects take at most \(fitting); \(describe(rule.sourceKinds, count: min(fitting, s - 1)))"
            )
        }
        if let inverse = rule.inverse, let maximum = forward.maximum, (rule.targetMinimum + skew) * d > maximum * s {
            let fitting = maximum * s / (rule.targetMinimum + skew)
            return .limitTargets(
                to: fitting,
                "needs at least \(rule.targetMinimum) \(forward.entity) object\(rule.targetMinimum == 1 ? "" : "s") each and \(forward.name) holds at most \(maximum) each, so \(s) \(forward.entity) objects serve at most \(fitting); \(describe(rule.targetKinds, count: min(fitting, d - 1))) (\(inverse.name))"
            )
        }
        return .limitSources(
            to: s - 1,
            "cannot be linked within its counts with \(s) \(forward.entity) and \(d) \(destination) objects; \(describe(rule.sourceKinds, count: s - 1))"
        )
    }

    private func fitReflexive(_ rule: LinkRule, objects s: Int) -> Fit {
        let side = rule.forward
        guard s > 0 else { return .fits(.pairs(required: false)) }
        if (side.maximum ?? Int.max) <= 1 {
            if side.minimum > 0 && s % 2 == 1 {
                return .limitSources(
                    to: s - 1,
                    "is its own inverse and required, so objects are linked in pairs; \(describe(rule.sourceKinds, count: s - 1)) (an even number)"
                )
            }
            return .fits(.pairs(required: side.minimum > 0))
        }
        let low = (side.minimum + 1) / 2
        let high = min(side.maximum.map { $0 / 2 } ?? (low + 2), low + 2, (s - 1) / 2)
        if low <= high { return .fits(.ring(low: low, high: high)) }
        if 2 * low > s - 1 {
            return .limitSources(
                to: 0,
                "is its own inverse and needs at least \(side.minimum) other objects each, and there are \(s - 1); so \(describe(rule.sourceKinds, count: 0)) (generate more objects)"
            )
        }
        return .limitSources(
            to: 0,
            "is its own inverse with exactly \(side.minimum) objects each, an odd number the generator cannot link symmetrically; so \(describe(rule.sourceKinds, count: 0))"
        )
    }
}
