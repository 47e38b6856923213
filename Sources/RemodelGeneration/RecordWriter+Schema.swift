import RemodelModel

/// The `<Model>Schema` enum: what the records were generated for, the check that a store is that (as Room checks
/// its identity hash at every open), the record types, the join tables, the error type and the helpers the
/// records read and check values with.
extension RecordWriter {
    func schemaFile() -> String {
        header(
            "What the records were generated for, and the check of a store", publicFoundation: compositesUseFoundation)
            + schemaBody()
    }

    func schemaBody() -> String {
        var out = SwiftWriter()
        let version = shape.layout.version
        let subject = configurationName.map { "configuration \(Self.literal($0)) of " } ?? ""
        out.doc(
            """
            The records of \(subject)version \(Self.literal(versionName)) of the model \(Self.literal(bundleName)).

            Call `check(_:)` on a store before reading it through the records (`RemodelGRDB` does, after launching
            the store): it refuses a store at another version, or one whose schema drifted.
            """)
        out.block("\(open)enum \(schema)") { out in
            out.doc("The model's name, as the store records it.")
            out.line("\(open)static let modelName = \(Self.literal(bundleName))")
            out.doc("The version the records were generated for.")
            out.line("\(open)static let versionName = \(Self.literal(versionName))")
            out.doc(
                "The configuration whose entities the records are of (`nil`: every entity), as the store records it.")
            out.line(
                "\(open)static let configurationName: String? = \(configurationName.map(Self.literal) ?? "nil")")
            out.doc("The store layout's format version the records read.")
            out.line("\(open)static let formatVersion = 1")
            out.doc(
                "Each entity's version hash, as the store records it (`entityHash.<Entity>` in `_RemodelMetadata`).")
            let names = version.entityHashes.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            out.line("\(open)static let entityHashes: [String: String] = [")
            for name in names {
                out.line("    \(Self.literal(name)): \(Self.literal(version.entityHashes[name] ?? "")),")
            }
            if names.isEmpty { out.line("    :") }
            out.line("]")
            out.doc("One record type per table: `fetchAll(db)` on each reads every object of the store once.")
            let types = shape.tables.map { "\($0.recordTypeName).self" }.joined(separator: ", ")
            out.line(
                "\(open)static var recordTypes: [any (FetchableRecord & MutablePersistableRecord & TableRecord).Type] { [\(types)] }"
            )
            out.line()
            out.doc("The tables and columns `check(_:)` looks for: each hierarchy table's, then the join tables'.")
            out.line("static let tables: [(name: String, columns: [String])] = [")
            for table in shape.layout.tables {
                let columns = table.columns.map { Self.literal($0.name) }.joined(separator: ", ")
                out.line("    (\(Self.literal(table.name)), [\(columns)]),")
            }
            let joinColumns = [
                StoreColumn.joinSource, StoreColumn.joinDestination, StoreColumn.joinSourceOrder,
                StoreColumn.joinDestinationOrder,
            ].map(Self.literal).joined(separator: ", ")
            for join in shape.layout.joinTables {
                out.line("    (\(Self.literal(join.name)), [\(joinColumns)]),")
            }
            out.line("]")
            out.line()
            writeCheck(to: &out)
            out.line()
            writeLinks(to: &out)
            writeComposites(to: &out)
        }
        out.line()
        return out.text + supportText() + (shape.compositeTypeNames.isEmpty ? "" : compositeSupportText())
            + (usesArchives ? archiveSupportText() : "")
            + (shape.tables.contains(where: \.isHierarchy) ? sharedTableSupport() : "")
    }

    private func writeCheck(to out: inout SwiftWriter) {
        let metadata = Self.literal(StoreColumn.metadataTable)
        out.doc(
            """
            Refuses a store the records cannot read: not a Remodel store, another model's, one holding another \
            configuration's entities, at another version (both versions named), a version edited since, or a schema \
            that drifted (tables and columns named). Reads only the store's metadata and schema, no object.

            For example:
            ```swift
            try dbQueue.read { db in try \(schema).check(db) }
            ```
            - Parameter db: A connection to the store.
            - Throws: `\(schema).RecordError` saying what the store is and what to do.
            """)
        out.block("\(open)static func check(_ db: Database) throws") { out in
            out.block("guard try db.tableExists(\(metadata)) else") { out in
                out.line(
                    "throw RecordError(kind: .notAStore, message: \"the database has no \(StoreColumn.metadataTable) table: it is not a Remodel store; make it with Store.launch (or remodel create) before opening it with these records\")"
                )
            }
            out.line("var metadata: [String: String] = [:]")
            out.line(
                "let rows = try Row.fetchAll(db, sql: \(Self.literal("SELECT key, CAST(value AS TEXT) FROM \(quoteIdentifier(StoreColumn.metadataTable)) WHERE key <> 'versionContents'")))"
            )
            out.block("for row in rows") { out in
                out.line(
                    "if let key = try row.decode(String?.self, atIndex: 0) { metadata[key] = try row.decode(String?.self, atIndex: 1) }"
                )
            }
            out.line("try checkVersion(metadata)")
            out.line("var problems: [String] = []")
            out.block("for table in tables") { out in
                // SQLite's `lower` folds ASCII letters only, and names are compared byte for byte, as SQLite
                // compares identifiers (`NAMÉ` is not `namé`, nor `café` written with a combining accent `café`).
                out.line(
                    "let present = Set(try String.fetchAll(db, sql: \"SELECT lower(name) FROM pragma_table_xinfo(?)\", arguments: [table.name]).map { Array($0.utf8) })"
                )
                out.block("if present.isEmpty") { out in
                    out.line("problems.append(\"table \\\"\\(table.name)\\\" is missing\")")
                    out.line("continue")
                }
                out.line(
                    "let missing = table.columns.filter { !present.contains($0.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }) }"
                )
                out.block("if !missing.isEmpty") { out in
                    out.line(
                        "problems.append(\"table \\\"\\(table.name)\\\" lacks \\(missing.map { \"\\\"\\($0)\\\"\" }.joined(separator: \", \"))\")"
                    )
                }
            }
            out.block("if !problems.isEmpty") { out in
                out.line(
                    "throw RecordError(kind: .schemaDrift, message: \"the store's schema drifted from version \\\"\\(versionName)\\\" of the model \\\"\\(modelName)\\\": \\(problems.joined(separator: \"; \")); it was changed by hand or by another tool: restore it from a backup\")"
                )
            }
        }
        out.line()
        out.block("static func checkVersion(_ metadata: [String: String]) throws") { out in
            out.block("if let format = metadata[\"formatVersion\"].flatMap({ Int($0) }), format > formatVersion") {
                out in
                out.line(
                    "throw RecordError(kind: .newerFormat, message: \"the store is laid out in format \\(format), newer than the format \\(formatVersion) these records read: it was written by a newer Remodel; open it with the app that wrote it\")"
                )
            }
            out.line("let storeModel = metadata[\"modelName\"] ?? \"\"")
            out.line("let storeVersion = metadata[\"versionName\"] ?? \"\"")
            out.block("if storeModel != modelName") { out in
                out.line(
                    "throw RecordError(kind: .otherModel, message: \"the store is of the model \\\"\\(storeModel)\\\", but these records are of the model \\\"\\(modelName)\\\" (version \\\"\\(versionName)\\\"): open the store with its own model's records\")"
                )
            }
            out.line("let storeConfiguration = metadata[\"configuration\"]")
            out.block("if storeConfiguration != configurationName") { out in
                out.line(
                    "let holds = { (name: String?) in name.map { \"the entities of configuration \\\"\\($0)\\\"\" } ?? \"every entity\" }"
                )
                out.line(
                    "throw RecordError(kind: .otherConfiguration, message: \"the store holds \\(holds(storeConfiguration)) of the model \\\"\\(modelName)\\\", but these records are of \\(holds(configurationName)): open the store with the records of what it holds (remodel generate\\(storeConfiguration.map { \" --configuration \\($0)\" } ?? \" without --configuration\"))\")"
                )
            }
            out.block("if storeVersion != versionName") { out in
                out.line(
                    "throw RecordError(kind: .otherVersion, message: \"the store is at version \\\"\\(storeVersion)\\\" of the model \\\"\\(modelName)\\\", but these records were generated for version \\\"\\(versionName)\\\": launch the store with Store.launch (or run remodel migrate) to bring it to the current version first, or generate the records for the version the app ships\")"
                )
            }
            out.line(
                "let edited = entityHashes.keys.sorted().filter { metadata[\"entityHash.\\($0)\"] != entityHashes[$0] }"
            )
            out.block("if !edited.isEmpty") { out in
                out.line(
                    "throw RecordError(kind: .editedVersion, message: \"the store records version \\\"\\(versionName)\\\" with other hashes for \\(edited.joined(separator: \", \")): the version was edited after the store was made, or the records after the model; add a new version for the change, and generate the records again\")"
                )
            }
        }
    }

    private func writeLinks(to out: inout SwiftWriter) {
        out.doc("The join tables, as GRDB table records for `hasMany(_:through:)` associations.")
        out.block("\(open)enum Links") { out in
            for (offset, link) in shape.joins.enumerated() {
                if offset > 0 { out.line() }
                let join = link.join
                let inverse = join.destinationRelationship.map { " ↔ \(join.destinationEntity).\($0)" } ?? ""
                out.doc(
                    "The join table \(Self.literal(join.name)): \(join.sourceEntity).\(join.sourceRelationship)\(inverse)."
                )
                out.block("\(open)enum \(link.typeName): TableRecord") { out in
                    out.line("\(open)static let databaseTableName = \(Self.literal(join.name))")
                    let sourceType = shape.fetchType(of: join.sourceEntity)
                    let destinationType = shape.fetchType(of: join.destinationEntity)
                    out.doc("The object whose `_pk` is in `source`.")
                    out.line(
                        "\(open)static var sourceObject: BelongsToAssociation<\(link.typeName), \(sourceType)> { belongsTo(\(sourceType).self, key: \(Self.literal(StoreColumn.joinSource)), using: ForeignKey([\(Self.literal(StoreColumn.joinSource))], to: [\(Self.literal(StoreColumn.pk))]))\(kindFilter(join.sourceEntity)) }"
                    )
                    out.doc("The object whose `_pk` is in `destination`.")
                    out.line(
                        "\(open)static var destinationObject: BelongsToAssociation<\(link.typeName), \(destinationType)> { belongsTo(\(destinationType).self, key: \(Self.literal(StoreColumn.joinDestination)), using: ForeignKey([\(Self.literal(StoreColumn.joinDestination))], to: [\(Self.literal(StoreColumn.pk))]))\(kindFilter(join.destinationEntity)) }"
                    )
                }
            }
        }
    }
}
