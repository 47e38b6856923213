import Testing

@testable import Remodel
@testable import RemodelModel

struct StoreLayoutTests {
    private func layout() throws -> StoreLayout {
        StoreLayout(version: try StoreFixtures.everything().currentVersion)
    }

    @Test func oneTablePerHierarchyWithColumnsInDocumentedOrder() throws {
        let layout = try layout()
        #expect(layout.tables.map(\.name) == ["Sample", "Item", "Chapter", "Person", "Tag"])
        let item = try #require(layout.table(forEntity: "Book"))
        #expect(item.name == "Item")
        #expect(item.entities == ["Item", "Book", "Gadget"])
        #expect(item.columns.map(\.name) == ["_pk", "_entity", "title", "pages", "watts", "owner"])
        #expect(
            layout.table(forEntity: "Chapter")?.columns.map(\.name) == [
                "_pk", "_entity", "name", "book", "_book_order",
            ])
        #expect(layout.table(forEntity: "Person")?.columns.map(\.name) == ["_pk", "_entity", "name", "age", "manager"])
        #expect(layout.table(forEntity: "Sample")?.columns.contains { $0.name == "scratch" } == false)
    }

    @Test func relationshipStorage() throws {
        let layout = try layout()
        #expect(layout.storage(of: "owner", in: "Book") == .column(table: "Item", column: "owner"))
        #expect(
            layout.storage(of: "items", in: "Person")
                == .inverseColumn(table: "Item", column: "owner", orderColumn: nil))
        #expect(
            layout.storage(of: "chapters", in: "Book")
                == .inverseColumn(table: "Chapter", column: "book", orderColumn: "_book_order"))
        #expect(
            layout.storage(of: "tags", in: "Gadget")
                == .joinTable(name: "_Item_tags", ownerIsSource: true, orderColumn: nil))
        #expect(
            layout.storage(of: "items", in: "Tag")
                == .joinTable(name: "_Item_tags", ownerIsSource: false, orderColumn: "destination_order"))
        #expect(
            layout.storage(of: "favorites", in: "Person")
                == .joinTable(name: "_Person_favorites", ownerIsSource: true, orderColumn: "source_order"))
        #expect(
            layout.storage(of: "friends", in: "Person")
                == .joinTable(name: "_Person_friends", ownerIsSource: true, orderColumn: nil))
        #expect(layout.joinTables.map(\.name) == ["_Item_tags", "_Person_friends", "_Person_favorites"])
    }

    @Test func sqlIsGeneratedSeparatelyForTablesAndIndexes() throws {
        let layout = try layout()
        #expect(
            layout.createTablesSQL.contains(
                #"CREATE TABLE "_Item_tags" ("source" INTEGER NOT NULL, "destination" INTEGER NOT NULL, "source_order" INTEGER, "destination_order" INTEGER, PRIMARY KEY ("source", "destination"))"#
            ))
        #expect(
            layout.createTablesSQL.contains(
                #"CREATE TABLE "Chapter" ("_pk" INTEGER PRIMARY KEY, "_entity" TEXT NOT NULL, "name" TEXT, "book" INTEGER, "_book_order" INTEGER)"#
            ))
        #expect(
            layout.indexes.map(\.name) == [
                "_Item_owner_index", "_Item_entity_index", "_Chapter_book_index", "_Person_manager_index",
                "_Tag_unique_1",
                "__Item_tags_destination_index", "__Person_friends_destination_index",
                "__Person_favorites_destination_index",
            ])
        #expect(
            layout.createIndexesSQL.contains(#"CREATE UNIQUE INDEX IF NOT EXISTS "_Tag_unique_1" ON "Tag" ("name")"#))
    }

    @Test func subEntityConstraintIsAPartialIndex() {
        let version = ModelVersion(
            name: "V",
            entities: [
                Entity(name: "Animal", attributes: [Attribute(name: "tag", type: .string)]),
                Entity(
                    name: "Dog", parentName: "Animal",
                    uniquenessConstraints: [UniquenessConstraint(properties: ["tag"])]),
                Entity(name: "Puppy", parentName: "Dog"),
            ])
        let index = StoreLayout(version: version).indexes.first { $0.name == "_Dog_unique_1" }
        #expect(
            index?.createSQL
                == #"CREATE UNIQUE INDEX IF NOT EXISTS "_Dog_unique_1" ON "Animal" ("tag") WHERE "_entity" IN ('Dog', 'Puppy')"#
        )
    }
}
