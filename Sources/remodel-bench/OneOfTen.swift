/// `oneOfTen`: BenchTen → BenchTen 2 changes one entity of ten: Product gains `label`, computed by the
/// mapping file (`name + ' ' + sku`), so its table is rebuilt; the nine other tables are carried as they
/// are. `oneOfTenLimit` rebuilds that one table by hand on a byte copy (see ``CopyLimit``), the way
/// SQLite documents it: create the new table, copy the rows with the same expression, drop the old
/// table, rename the new one, create its indexes again.
extension CopyStep {
    static let oneOfTen = CopyStep(
        model: .ten,
        statements: [
            #"CREATE TABLE main."_Product_new" ("_pk" INTEGER PRIMARY KEY, "_entity" TEXT NOT NULL, "name" TEXT, "sku" TEXT, "price" REAL, "label" TEXT, "category" INTEGER)"#,
            #"INSERT INTO main."_Product_new" SELECT "_pk", "_entity", "name", "sku", "price", "name" || ' ' || "sku", "category" FROM main."Product""#,
            #"DROP TABLE main."Product""#,
            #"ALTER TABLE main."_Product_new" RENAME TO "Product""#,
            #"CREATE INDEX main."_Product_category_index" ON "Product" ("category")"#,
            #"CREATE UNIQUE INDEX main."_Product_unique_1" ON "Product" ("sku")"#,
        ])
}
