/// `addAttribute`: BenchAddAttribute → BenchAddAttribute 2 adds one optional attribute to Person
/// (`middleName`), the most common change there is. The library carries every table: Person gets its
/// column by `ALTER TABLE`, nothing is rebuilt. `addAttributeLimit` makes the same change by hand on a
/// byte copy (see ``CopyLimit``).
extension CopyStep {
    /// The hand-written change: the column the library's layout gives the attribute.
    static let addAttribute = CopyStep(
        model: .addAttribute, statements: [#"ALTER TABLE main."Person" ADD COLUMN "middleName" TEXT"#])
}
