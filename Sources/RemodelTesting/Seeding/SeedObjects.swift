import Remodel

/// Where generated objects are: each concrete entity's objects take a run of
/// consecutive `_pk` in its hierarchy's table (entities in table order,
/// starting at 1), so an object's `_pk` and its position among the objects of
/// any entity's kinds are computed, never stored.
struct SeedObjects {
    /// One concrete entity's objects.
    struct Run: Equatable {
        var entity: String
        var first: Int64
        var count: Int
    }

    private(set) var runs: [String: Run] = [:]
    private let layout: StoreLayout

    init(layout: StoreLayout, counts: [String: Int]) {
        self.layout = layout
        for table in layout.tables {
            var next: Int64 = 1
            for name in table.entities {
                guard let entity = layout.version.entity(named: name), !entity.isAbstract, runs[name] == nil else {
                    continue
                }
                let count = counts[name] ?? 0
                runs[name] = Run(entity: name, first: next, count: count)
                next += Int64(count)
            }
        }
    }

    /// The objects of an entity and every entity inheriting from it.
    func kinds(of entityName: String) -> ObjectSet {
        ObjectSet(runs: layout.kinds(of: entityName).compactMap { runs[$0] })
    }
}

/// A set of generated objects of one table, numbered `0..<count` in `_pk` order.
struct ObjectSet {
    let runs: [SeedObjects.Run]
    let count: Int
    private let starts: [Int]

    init(runs: [SeedObjects.Run]) {
        self.runs = runs.filter { $0.count > 0 }.sorted { $0.first < $1.first }
        var starts: [Int] = []
        var total = 0
        for run in self.runs {
            starts.append(total)
            total += run.count
        }
        self.starts = starts
        count = total
    }

    /// Whether the set has no object.
    var isEmpty: Bool { count == 0 }

    /// The `_pk` of the object at `index`.
    func primaryKey(at index: Int) -> Int64 {
        var low = 0
        var high = runs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return runs[low].first + Int64(index - starts[low])
    }

    /// The index of the object with that `_pk`, when it is in the set.
    func index(of primaryKey: Int64) -> Int? {
        for (offset, run) in runs.enumerated()
        where primaryKey >= run.first && primaryKey < run.first + Int64(run.count) {
            return starts[offset] + Int(primaryKey - run.first)
        }
        return nil
    }

    /// Whether the two sets share an object.
    func overlaps(_ other: ObjectSet) -> Bool {
        runs.contains { run in other.runs.contains { $0 == run } }
    }
}
