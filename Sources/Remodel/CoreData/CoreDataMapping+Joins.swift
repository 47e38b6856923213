extension CoreDataMapping.Builder {
    /// A table that may be a relationship's join table: its key columns for the members and the owners.
    private struct JoinCandidate {
        var table: CoreDataSchema.Table
        var members: CoreDataSchema.Column
        var owners: CoreDataSchema.Column
        /// How many of the names' entity numbers are the store's numbers of the entities they stand for
        /// (numbers in names may be an earlier version's: Core Data renames them when it migrates, not always).
        var agreement: Int
    }

    /// The tables that are neither an entity's table nor Core Data's own: where join tables are found.
    private var joinTableCandidates: [CoreDataSchema.Table] {
        schema.tables.values.filter {
            !CoreDataSchema.isCoreDataOwn($0.name) && CoreDataName.normalized($0.name).hasPrefix("Z_")
        }.sorted { $0.name < $1.name }
    }

    /// The key columns of a join table (its ordering keys `Z_FOK_…` aside).
    private static func keyColumns(of table: CoreDataSchema.Table) -> [CoreDataSchema.Column] {
        table.columns.filter { !CoreDataName.normalized($0.name).hasPrefix(CoreDataName.orderKeyPrefix) }
    }

    /// Maps every many-to-many relationship and to-many without an inverse to its join table, found by its
    /// columns: two key columns, `Z_<n><RELATIONSHIP>` holding the members and `Z_<n><INVERSE>` the owners,
    /// each possibly with a number Core Data added (`Z_23USERS1` where two join tables would both have a
    /// `Z_23USERS`). The table's own name and the entity numbers are not relied on; where two tables fit
    /// one relationship, the one whose numbers are the store's entity numbers is taken, and each table serves
    /// one relationship.
    mutating func mapJoins() {
        var candidatesByJoin: [(join: StoreLayout.JoinTable, candidates: [JoinCandidate])] = []
        for join in layout.joinTables {
            if let inverse = join.destinationRelationship,
                CoreDataName.storeSpelling(inverse) == CoreDataName.storeSpelling(join.sourceRelationship)
            {
                mapping.differences.append(
                    "\(join.sourceEntity).\(join.sourceRelationship) is its own inverse, which Remodel does not import from Core Data yet"
                )
                continue
            }
            candidatesByJoin.append((join, candidates(for: join)))
        }
        // The most constrained first, so a table that fits one relationship only goes to it.
        let order = candidatesByJoin.indices.sorted {
            (candidatesByJoin[$0].candidates.count, $0) < (candidatesByJoin[$1].candidates.count, $1)
        }
        var claimed: [Int: CoreDataMapping.Join] = [:]
        for index in order {
            let (join, candidates) = candidatesByJoin[index]
            let free = candidates.filter { !usedTables.contains(CoreDataName.normalized($0.table.name)) }
            guard let best = free.max(by: { $0.agreement < $1.agreement }) else {
                mapping.differences.append(missingJoinTable(join))
                continue
            }
            usedTables.insert(CoreDataName.normalized(best.table.name))
            claimed[index] = mapped(join, best)
        }
        for index in candidatesByJoin.indices { if let join = claimed[index] { mapping.joins.append(join) } }
    }

    /// The tables whose key columns fit `join`.
    private func candidates(for join: StoreLayout.JoinTable) -> [JoinCandidate] {
        let relationship = join.sourceRelationship
        let memberNumber = numberByEntity[join.destinationEntity]
        let ownerNumber = numberByEntity[join.sourceEntity]
        var found: [JoinCandidate] = []
        for table in joinTableCandidates {
            let keys = Self.keyColumns(of: table)
            guard keys.count == 2 else { continue }
            for (members, owners) in [(keys[0], keys[1]), (keys[1], keys[0])] {
                guard let member = CoreDataName.joinName(members.name, of: relationship) else { continue }
                var agreement = member.number == memberNumber ? 1 : 0
                if let inverse = join.destinationRelationship {
                    guard let owner = CoreDataName.joinName(owners.name, of: inverse) else { continue }
                    agreement += owner.number == ownerNumber ? 1 : 0
                } else if CoreDataName.joinName(owners.name, of: relationship) != nil
                    && CoreDataName.normalized(owners.name) > CoreDataName.normalized(members.name)
                {
                    // Without an inverse the owners' column is named by no relationship: where both could be
                    // the members', the table is read once, with the members in the first.
                    continue
                }
                found.append(JoinCandidate(table: table, members: members, owners: owners, agreement: agreement))
            }
        }
        return found
    }

    /// The join read from `candidate`, with the ordering keys of its ordered sides.
    private mutating func mapped(_ join: StoreLayout.JoinTable, _ candidate: JoinCandidate) -> CoreDataMapping.Join {
        let owner = "\(join.sourceEntity).\(join.sourceRelationship)"
        var result = CoreDataMapping.Join(
            target: join.name, source: candidate.table.name, sourceColumn: candidate.owners.name,
            destinationColumn: candidate.members.name)
        if join.sourceIsOrdered {
            result.sourceOrderKey = orderKey(forMembers: candidate.members.name, in: candidate.table, of: owner)
        }
        if join.destinationIsOrdered, let inverse = join.destinationRelationship {
            result.destinationOrderKey = orderKey(
                forMembers: candidate.owners.name, in: candidate.table, of: "\(join.destinationEntity).\(inverse)")
        }
        return result
    }

    /// What is said when no table fits `join`.
    private func missingJoinTable(_ join: StoreLayout.JoinTable) -> String {
        let owner = "\(join.sourceEntity).\(join.sourceRelationship)"
        let relationship = CoreDataName.storeSpelling(join.sourceRelationship)
        guard let inverse = join.destinationRelationship else {
            return
                "no join table with a column Z_<n>\(relationship) for \(owner), a to-many relationship without an inverse"
        }
        return
            "no join table with columns Z_<n>\(relationship) and Z_<n>\(CoreDataName.storeSpelling(inverse)) for \(owner)"
    }

    /// The ordering key `Z_FOK_<column without Z_>` of a join table's column.
    private mutating func orderKey(
        forMembers column: String, in table: CoreDataSchema.Table, of relationship: String
    ) -> String? {
        let key = CoreDataName.orderKey(ofJoinColumn: column)
        guard let found = table.column(key) else {
            mapping.differences.append("\(table.name) has no column \(key) for the order of \(relationship)")
            return nil
        }
        return found.name
    }
}
