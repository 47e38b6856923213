import Foundation
import GRDB
import NamesRecords
import Remodel
import Testing

/// Entity names that are Swift's, Foundation's or GRDB's types, attribute names that are keywords or members of a
/// record: the generated code compiles (this file's target builds it) and reads as the name rule says.
struct NamesRecordsTests {
    let bundle: ModelBundle

    init() throws { bundle = try RecordsTestSupport.model("Tests/RemodelTests/Fixtures/Generation/Names.xcdatamodel") }

    @Test func clashingNamesFollowTheRule() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("names.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try NamesSchema.check(db)
            var notification = NotificationEntity(
                default_: "d", class_: "c", operator_: 3, self_: true, id_: UUID(), Type_: "t")
            try notification.insert(db)
            var data = DataEntity(insert_: Date(timeIntervalSince1970: 0))
            try data.insert(db)
            try notification.setData(data.id, in: db)
            var type = TypeEntity(validate_: 1.5, hashValue_: 7)
            try type.insert(db)
            var kind = ProtocolEntity()
            try kind.insert(db)
            #expect(try AnyDate_2.fetchAll(db).count == 2)
            var plain = AnyDate()
            try plain.insert(db)
            #expect(try AnyDate.fetchCount(db) == 1)
            #expect(try NotificationEntity.fetchOne(db, id: notification.id)?.class_ == "c")
            // Swift's own types keep their meaning beside the entities.
            let date: Date = Date(timeIntervalSince1970: 1)
            let task = Task<Int, Never> { 1 }
            task.cancel()
            #expect(date.timeIntervalSince1970 == 1)
        }
    }

    /// A name beside another's derived members: the relationship `friend` beside the attribute `friendRequest`
    /// (its request would be that name) is `friend_2`; `Friend` and `FriendOf` beside `friend` and `friendOf`,
    /// differing only by case, would declare `setFriend`, `addToFriendOf`… twice, so `FriendOf` is
    /// `FriendOf_2` (`Friend` keeps its name: `friend` moved). Each still reaches its own column. Entities named
    /// `Links` and `Patterns` (types nested in the schema enum) become `LinksEntity` and `PatternsEntity`.
    @Test func namesBesideDerivedMembersFollowTheRule() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("members.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var ada = Member(friendRequest: "pending", fee: Decimal(string: "1.50"))
            try ada.insert(db)
            var bob = Member()
            try bob.insert(db)
            try ada.setFriend_2(bob.id, in: db)
            try ada.setFriend(ada.id, in: db)
            let read = try #require(try Member.fetchOne(db, id: ada.id))
            #expect(read.friendRequest == "pending")
            #expect(read.fee == Decimal(string: "1.5"))
            #expect(read.friend_2 == bob.id)
            #expect(read.Friend == ada.id)
            #expect(try bob.friendOfRequest.fetchAll(db).compactMap(\.id) == [ada.id])
            #expect(try ada.FriendOf_2Request.fetchAll(db).compactMap(\.id) == [ada.id])
            #expect(try read.friend_2Request.fetchOne(db)?.id == bob.id)
            // Entities named as the schema's nested types, or as a join table's link type, which the schema's
            // code would otherwise mean instead of them.
            var links = LinksEntity()
            try links.insert(db)
            var patterns = PatternsEntity()
            try patterns.insert(db)
            var likedBy = Member_likedBy()
            try likedBy.insert(db)
            try ada.addToLikes([bob.id!], in: db)
            #expect(try bob.likedByRequest.fetchAll(db).compactMap(\.id) == [ada.id])
            #expect(try NamesSchema.Links.Member_likedBy_2.fetchCount(db) == 1)
            #expect(NamesSchema.recordTypes.contains { $0 == LinksEntity.self })
        }
        let export = try Store.open(at: path, bundle: bundle).exportJSONString()
        #expect(export.contains(#""friendRequest": "pending""#))
    }

    @Test func oneToOneLinksKeepBothSides() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("partners.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var error = ErrorEntity()
            try error.insert(db)
            var first = ResultEntity()
            try first.insert(db)
            var second = ResultEntity()
            try second.insert(db)
            try error.setPartner(first.id, in: db)
            #expect(try ResultEntity.fetchOne(db, id: first.id)?.partner == error.id)
            // Linked through the other side: the old partner lets go, the error names the new one.
            try second.setPartner(error.id, in: db)
            #expect(try ResultEntity.fetchOne(db, id: first.id)?.partner == nil)
            #expect(try ErrorEntity.fetchOne(db, id: error.id)?.partner == second.id)
            // A plain update keeps both sides too.
            var reread = try #require(try ErrorEntity.fetchOne(db, id: error.id))
            reread.partner = first.id
            try reread.update(db)
            #expect(try ResultEntity.fetchOne(db, id: first.id)?.partner == error.id)
            #expect(try ResultEntity.fetchOne(db, id: second.id)?.partner == nil)
            // Result.partner cascades: deleting the result deletes its error.
            let result = try #require(try ResultEntity.fetchOne(db, id: first.id))
            try result.delete(db)
            #expect(try ErrorEntity.fetchCount(db) == 0)
        }
        let store = try Store.open(at: path, bundle: bundle)
        #expect(try store.exportJSONString().contains(#""Result": ["#))
    }

    @Test func denyRefusesADeleteWhileTheRelationshipHoldsObjects() throws {
        let folder = try RecordsTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("deny.sqlite").path
        _ = try Store.create(at: path, bundle: bundle)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            var data = DataEntity()
            try data.insert(db)
            var notification = NotificationEntity(data: data.id)
            try notification.insert(db)
            let error = try #require(throws: NamesSchema.RecordError.self) { try data.delete(db) }
            #expect(
                error.description
                    == #"Data _pk 1 cannot be deleted: its relationship "notifications" has the Deny delete rule and still holds objects; unlink or delete them first"#
            )
            try notification.delete(db)
            #expect(try data.delete(db))
        }
    }
}
