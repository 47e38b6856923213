/// How the tables of a Core Data store map onto the Remodel layout of one model version: which Core
/// Data column fills each Remodel column, which join table each many-to-many relationship reads, and
/// everything about the store that does not fit the version (``differences``).
///
/// Names are read from the store's schema, not predicted: a property's column is one named `Z<NAME>` or
/// that with a number Core Data added, the one whose type and values fit it (``CoreDataColumnMatching``);
/// a join table the one whose key columns are `Z_<n><RELATIONSHIP>` and `Z_<n><INVERSE>`, each possibly
/// numbered (docs/CORE-DATA-STORES.md, "Names Core Data numbers").
package struct CoreDataMapping: Sendable {
    /// One Core Data column read into a Remodel column, for the objects of some entities.
    package struct Source: Sendable, Hashable {
        /// The entity numbers (`Z_ENT`) of the objects whose value this column holds.
        package var numbers: [Int64]
        /// The Core Data column.
        package var column: String
        /// The entity that declares the property, and the property.
        package var entity: String
        package var property: String
        /// The attribute's type, `nil` for a to-one relationship.
        package var type: AttributeType?
        /// Whether the attribute allows external storage (a marker byte, then the bytes or a file name).
        package var isExternal: Bool
        /// Whether the property is optional (a missing external data file then imports nil, not empty bytes).
        package var isOptional: Bool
    }

    /// A Remodel column and where its values come from.
    package struct ValueColumn: Sendable, Hashable {
        package var target: String
        package var sources: [Source]
    }

    /// The order column of an ordered to-many whose inverse is to-one: positions from `Z_FOK_<INVERSE>`.
    package struct Order: Sendable, Hashable {
        package var target: String
        /// The to-one column the positions are counted within.
        package var partition: String
        /// Core Data's ordering key (`Z_FOK_…`), not a position: it is ranked.
        package var key: String
    }

    /// One hierarchy: a Core Data table `Z<ROOT>` read into the Remodel table of the same root entity.
    package struct Table: Sendable, Hashable {
        package var target: String
        package var source: String
        /// The concrete entity of each entity number of the hierarchy.
        package var entityByNumber: [Int64: String]
        /// The numbers of abstract entities (no object may have one).
        package var abstractNumbers: [Int64: String]
        package var columns: [ValueColumn]
        package var orders: [Order]
        /// The composite columns, each made of the leaf columns Core Data keeps (``CompositeColumn``).
        package var composites: [CompositeColumn] = []
        /// The columns of derived attributes the store computes: not copied, but compared with what the new store
        /// computes (`remodel import-core-data` refuses a value that differs).
        package var derived: [ValueColumn] = []
    }

    /// A many-to-many relationship: a Core Data join table read into a Remodel join table.
    package struct Join: Sendable, Hashable {
        package var target: String
        package var source: String
        /// The Core Data column holding what Remodel keeps in `source` (the owner side's objects).
        package var sourceColumn: String
        /// The Core Data column holding what Remodel keeps in `destination`.
        package var destinationColumn: String
        /// Core Data's ordering keys for `source_order` and `destination_order`, when ordered.
        package var sourceOrderKey: String?
        package var destinationOrderKey: String?
    }

    package var tables: [Table] = []
    package var joins: [Join] = []
    /// What about the store does not fit the version, one short phrase each.
    var differences: [String] = []
    /// Indexes the version declares that the store lacks, or the other way round (they drift: only a
    /// tie-breaker between versions whose tables and columns fit equally).
    var indexDifferences: [String] = []
    /// The tables Core Data keeps for itself that the store has (never imported).
    package var skippedTables: [String] = []
}
