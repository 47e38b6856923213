/// Which column of a Core Data table holds which property, found from the store's structure.
///
/// Core Data names a property's column `Z<NAME>`, and where that name is taken (two entities of one
/// hierarchy declare it, or two names are one once upper-cased) it adds a number: `ZTEXT1`. Which
/// property gets the number is not documented and changes between OS releases (a join column numbered 1
/// on iOS 17 is numbered 2 on iOS 26), so it is never predicted. Each property may take any column of
/// its name with or without a number; a column fits a property when its declared type is one Core Data
/// gives the property, and when every row holding a value in it is an object of the entity that declares
/// the property (or of a sub-entity): a column holds values only for its own property's objects. Among
/// the assignments that give every property a column, the claims are served in their order, each preferring
/// its columns in their order, and one is moved to another column it fits only where that lets a later
/// one have a column. A claim no fitting column is left for takes any column of its name left over
/// (the caller reports its type or values as a difference).
///
/// Where the store cannot tell (two columns of one type that hold no value, or that hold values only for
/// objects that have both properties), the choice makes no difference to the objects imported unless one
/// entity declares both names (`text` and `Text`): then the first claim gets the first column.
///
/// For example:
/// ```swift
/// let claims = [
///     CoreDataColumnMatching.Claim(candidates: ["ZTEXT", "ZTEXT1"], kinds: [15], fits: { _ in true }),
///     CoreDataColumnMatching.Claim(candidates: ["ZTEXT", "ZTEXT1"], kinds: [16], fits: { _ in true }),
/// ]
/// let columns = CoreDataColumnMatching.assign(claims, occupancy: ["ZTEXT": [16], "ZTEXT1": [15]])
/// // [1: "ZTEXT", 0: "ZTEXT1"]
/// ```
package enum CoreDataColumnMatching {
    /// A property looking for its column.
    package struct Claim {
        /// The columns that may be the property's, in the order preferred (`ZTEXT`, then `ZTEXT1` …).
        package var candidates: [String]
        /// The entity numbers of the objects that have the property.
        package var kinds: Set<Int64>
        /// Whether a column's declared type is one Core Data gives the property.
        package var fits: (String) -> Bool

        package init(candidates: [String], kinds: Set<Int64>, fits: @escaping (String) -> Bool) {
            self.candidates = candidates
            self.kinds = kinds
            self.fits = fits
        }
    }

    /// The column of each claim (by its index) that gets one: as many claims as possible with columns
    /// whose type and values fit, then any column of its name left over. `occupancy` gives, by upper-case column name, the entity numbers of the
    /// rows holding a value in the column; a column it does not name is not checked for values.
    package static func assign(_ claims: [Claim], occupancy: [String: Set<Int64>]) -> [Int: String] {
        var owner: [String: Int] = [:]
        let strict: (Int, String) -> Bool = { index, column in
            guard claims[index].fits(column) else { return false }
            guard let holders = occupancy[CoreDataName.normalized(column)] else { return true }
            return holders.isSubset(of: claims[index].kinds)
        }
        for index in claims.indices {
            var visited: Set<String> = []
            _ = augment(index, claims, allowed: strict, owner: &owner, visited: &visited)
        }
        var result: [Int: String] = [:]
        for (column, index) in owner { result[index] = column }
        for index in claims.indices where result[index] == nil {
            if let column = claims[index].candidates.first(where: { owner[$0] == nil }) {
                owner[column] = index
                result[index] = column
            }
        }
        return result
    }

    /// Finds `index` a column, moving earlier claims to other columns they may take where that is the
    /// only way (an augmenting path of a bipartite matching).
    private static func augment(
        _ index: Int, _ claims: [Claim], allowed: (Int, String) -> Bool, owner: inout [String: Int],
        visited: inout Set<String>
    ) -> Bool {
        // A free column first, in the claim's order: an earlier claim is moved only when no free column fits.
        if let free = claims[index].candidates.first(where: {
            owner[$0] == nil && !visited.contains($0) && allowed(index, $0)
        }) {
            visited.insert(free)
            owner[free] = index
            return true
        }
        for column in claims[index].candidates where allowed(index, column) {
            guard visited.insert(column).inserted, let holder = owner[column] else { continue }
            guard augment(holder, claims, allowed: allowed, owner: &owner, visited: &visited) else { continue }
            owner[column] = index
            return true
        }
        return false
    }
}
