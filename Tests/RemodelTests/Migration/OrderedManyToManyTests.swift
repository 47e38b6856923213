import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// An ordered many-to-many keeps the order of both sides through every kind of step (the issue
/// "No data lost", item 1): `Song.playlists` ordered alone or with `Playlist.songs`; a step that only adds an
/// attribute, and one that renames `Song` to `Aria`, which flips the side that owns the join table.
struct OrderedManyToManyTests {
    private func model(songsOrdered: Bool, songEntity: String, note: Bool) -> String {
        let renaming = songEntity == "Song" ? "" : #" elementID="Song""#
        let ordered = songsOrdered ? #" ordered="YES""# : ""
        let noteAttribute = note ? #"<attribute name="note" optional="YES" attributeType="String"/>"# : ""
        return """
            <entity name="Playlist"><attribute name="name" optional="YES" attributeType="String"/>\(noteAttribute)<relationship name="songs" optional="YES" toMany="YES"\(ordered) deletionRule="Nullify" destinationEntity="\(songEntity)" inverseName="playlists" inverseEntity="\(songEntity)"/></entity>
            <entity name="\(songEntity)"\(renaming)><attribute name="title" optional="YES" attributeType="String"/><relationship name="playlists" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/></entity>
            """
    }

    /// The links of each object by entity, `[entity: [_pk: [linked _pk]]]`, from an export.
    private func links(_ export: String, _ entity: String, _ relationship: String) throws -> [Int: [Int]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: [[String: Any]]])
        var result: [Int: [Int]] = [:]
        for object in json[entity] ?? [] {
            result[object["_pk"] as? Int ?? -1] = object[relationship] as? [Int]
        }
        return result
    }

    @Test(arguments: [false, true], [true, false])
    func bothSidesKeepTheirOrder(songsOrdered: Bool, composed: Bool) async throws {
        let folder = try TemporaryFolder()
        let path = try BundleWriting.write(
            "Music", in: folder.path,
            versions: [
                ("Music", model(songsOrdered: songsOrdered, songEntity: "Song", note: false)),
                ("Music 2", model(songsOrdered: songsOrdered, songEntity: "Song", note: true)),
                ("Music 3", model(songsOrdered: songsOrdered, songEntity: "Aria", note: true)),
            ])
        let bundle = try ModelBundle(contentsOf: path)
        let seed = try folder.write(
            """
            {"Playlist": [{"_pk": 1, "name": "a", "songs": [11, 10]}, {"_pk": 2, "name": "b", "songs": [10, 12, 11]}],
             "Song": [{"_pk": 10, "title": "x", "playlists": [2, 1]}, {"_pk": 11, "title": "y", "playlists": [1, 2]},
                      {"_pk": 12, "title": "z", "playlists": [2]}]}
            """, to: "seed.json")
        let store = folder.file("store.sqlite")
        _ = try Store.create(at: store, bundle: bundle, version: "Music", seed: seed)
        let expectedSongs: [Int: [Int]] =
            songsOrdered ? [1: [11, 10], 2: [10, 12, 11]] : [1: [10, 11], 2: [10, 11, 12]]
        let expectedPlaylists: [Int: [Int]] = [10: [2, 1], 11: [1, 2], 12: [2]]
        var options = MigrationOptions(targetVersion: "Music 2", batchSize: 2)
        options.composesSteps = composed
        for target in ["Music 2", "Music 3"] {
            options.targetVersion = target
            _ = try await Migrator(bundle: bundle, options: options).migrate(storeAt: store)
            let output = folder.file("export.json")
            try Store.open(at: store, bundle: bundle).exportJSON(to: output)
            let export = try String(contentsOfFile: output, encoding: .utf8)
            let songEntity = target == "Music 3" ? "Aria" : "Song"
            #expect(try links(export, songEntity, "playlists") == expectedPlaylists, "\(target)")
            #expect(try links(export, "Playlist", "songs") == expectedSongs, "\(target)")
        }
        // Renaming Song to Aria moved the join table's ownership to the other side: the rename step is real.
        let layouts = try ["Music", "Music 3"].map {
            StoreLayout(version: try bundle.loadVersion(named: $0)).joinTables[0]
        }
        #expect(layouts.map(\.sourceEntity) == ["Playlist", "Aria"])
    }
}
