import Foundation
import Remodel

/// Writes the `launch` scenario's bundle, shaped like a real app's after years of releases: 75 versions
/// of 40 entities, each version adding one attribute somewhere (about 300 attributes in the first
/// version, 374 in the last), 16 to-one links with their to-many inverses, Xcode's XML — about 3.4 MB in
/// all — and a store at the current version beside it.
enum LaunchBundle {
    static let entities = [
        "Account", "Album", "Attachment", "Author", "Bookmark", "Calendar", "Category", "Channel", "Comment", "Contact",
        "Conversation", "Device", "Document", "Draft", "Event", "Folder", "Group", "Invitation", "Label", "Location",
        "Message", "Note", "Notification", "Participant", "Photo", "Playlist", "Post", "Preference", "Profile",
        "Project",
        "Reaction", "Reminder", "Session", "Subscription", "Tag", "Task", "Team", "Thread", "Track", "Workspace",
    ]
    static let attributeNames = [
        "title", "name", "createdAt", "updatedAt", "identifier", "summary", "notes", "position", "count", "score",
        "isArchived", "isFavorite", "colorHex", "sortIndex", "remoteID", "etag", "syncedAt", "priority", "kind",
    ]
    /// Entities 1…16 have a to-one `owner` (entity n/2), with its to-many inverse.
    static let links = 16
    static let attributeTypes = [
        "String", "Integer 64", "Date", "Boolean", "Double", "Integer 32", "String", "Integer 16",
    ]

    static func bundlePath(in folder: String) -> String { "\(folder)/BenchLaunch.xcdatamodeld" }
    static func storePath(in folder: String) -> String { "\(folder)/launch.sqlite" }

    static func versionName(_ number: Int) -> String {
        number == 1 ? "BenchLaunch" : "BenchLaunch \(number)"
    }

    /// Writes the bundle and a store at its current version in `folder`; returns the bytes of XML written.
    static func write(in folder: String) throws -> Int {
        let bundle = bundlePath(in: folder)
        try? FileManager.default.removeItem(atPath: folder)
        let bytes = try BundleWriter.write(
            (1...Launch.versions).map { (versionName($0), contents(ofVersion: $0)) }, to: bundle)
        _ = try Store.create(at: storePath(in: folder), bundle: try ModelBundle(contentsOf: bundle))
        return bytes
    }

    /// Version `number`: the first version's attributes, plus one attribute per later version up to it.
    static func contents(ofVersion number: Int) -> String {
        var added: [Int: [Int]] = [:]
        if number >= 2 {
            for later in 2...number { added[(later * 7) % entities.count, default: []].append(later) }
        }
        var xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

            """
        for (index, entity) in entities.enumerated() {
            xml += "    <entity name=\"\(entity)\" representedClassName=\"\(entity)\" syncable=\"YES\">\n"
            for attribute in 0..<(6 + index % 4) {
                xml += attributeLine(
                    name: attributeNames[(index + attribute) % attributeNames.count],
                    type: attributeTypes[(index * 3 + attribute) % attributeTypes.count])
            }
            for later in added[index] ?? [] {
                xml += attributeLine(name: "addedIn\(later)", type: attributeTypes[later % attributeTypes.count])
            }
            if index >= 1, index <= links {
                let owner = entities[index / 2]
                xml +=
                    "        <relationship name=\"owner\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"\(owner)\" inverseName=\"owned\(entity)s\" inverseEntity=\"\(owner)\"/>\n"
            }
            for child in [2 * index, 2 * index + 1] where child >= 1 && child <= links {
                let name = entities[child]
                xml +=
                    "        <relationship name=\"owned\(name)s\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\" destinationEntity=\"\(name)\" inverseName=\"owner\" inverseEntity=\"\(name)\"/>\n"
            }
            xml += "    </entity>\n"
        }
        return xml + "</model>\n"
    }

    private static func attributeLine(name: String, type: String) -> String {
        switch type {
        case "Boolean":
            return
                "        <attribute name=\"\(name)\" attributeType=\"Boolean\" defaultValueString=\"NO\" usesScalarValueType=\"YES\"/>\n"
        case "String", "Date":
            return "        <attribute name=\"\(name)\" optional=\"YES\" attributeType=\"\(type)\"/>\n"
        default:
            return
                "        <attribute name=\"\(name)\" optional=\"YES\" attributeType=\"\(type)\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/>\n"
        }
    }
}
