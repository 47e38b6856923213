/// The names the store layout gives its own columns and tables (docs/STORE-LAYOUT.md), spelled once.
///
/// SQL text interpolates these instead of writing the names by hand, so a typo does not compile:
/// ```swift
/// let sql = "SELECT \(StoreColumn.pk) FROM \(quoteIdentifier(table)) WHERE \(StoreColumn.entity) = ?"
/// ```
/// Each is a plain SQL identifier: it needs no quoting.
package enum StoreColumn {
    /// Every table's `INTEGER PRIMARY KEY`: an object's key, which relationships hold.
    package static let pk = "_pk"
    /// A hierarchy table's column naming each row's concrete entity.
    package static let entity = "_entity"
    /// A join table's column holding the `_pk` of the relationship's owner.
    package static let joinSource = "source"
    /// A join table's column holding the `_pk` of the related object.
    package static let joinDestination = "destination"
    /// A join table's position of the related object in an ordered relationship of the owner.
    package static let joinSourceOrder = "source_order"
    /// A join table's position of the owner in an ordered inverse of the related object.
    package static let joinDestinationOrder = "destination_order"
    /// The table of the store's own records: model, version, hashes, history.
    package static let metadataTable = "_RemodelMetadata"
}
