/// The `longHistory` model's first version and what each later version changes, shaped like the history of
/// a real app: many versions each adding an attribute or two, now and then a rename, a widening, a drop,
/// a new entity or relationship, one entity renamed and one removed. Every step is inferable.
///
/// - First version: 51 entities (49 concrete), three hierarchies (`Message` and `Member` abstract with
///   three and two children, `Asset` concrete with two), 24 relationships with their inverses: to-one ↔
///   to-many (five ordered), many-to-many (`Conversation.participants` ↔ `User.conversations`, `Note.tags`,
///   `Note.labels`; `Playlist.tracks` ordered on one side), one-to-one (`User.profile`), a unique `Tag.name`.
/// - Every version k ≥ 2 adds an optional attribute `addedK` somewhere; every third one (2, 5, …, 95) also a
///   required attribute `requiredK` with a default (`defaultValueString`).
/// - Renames with `elementID`, each chained once more later: five attributes, one relationship
///   (`Channel.threads` → `topics`), one entity (`Draft` → `Composition`); three renames that change only
///   the case of a name (`Bookmark.pageUrl` → `pageURL`, `Event.calendarId` → `calendarID`,
///   `Profile.displayname` → `displayName`), as Swift naming conventions make apps do.
/// - Five `Integer 16` attributes widened to `Integer 32`, later to `Integer 64`.
/// - Five attributes dropped and re-added twenty versions later, two dropped for good; one optional
///   attribute made required with a default; one to-many made ordered.
/// - Six entities added (one a new child of `Message`), with relationships; `Receipt` removed at 50.
enum HistoryChanges {
    static let versions = 96

    /// Attribute names and types of the entities' first-version attributes, in turn.
    private static let plainAttributes = [
        ("title", "String"), ("createdAt", "Date"), ("remoteIdentifier", "String"), ("sortIndex", "Integer 32"),
        ("isArchived", "Boolean"), ("rating", "Double"), ("updatedAt", "Date"), ("etag", "String"),
        ("priority", "Integer 16"),
        ("summary", "String"), ("size", "Integer 64"), ("colorValue", "Integer 32"),
    ]
    private static let addedTypes = [
        "String", "Integer 64", "Date", "Double", "Integer 32", "Boolean", "String", "Binary",
    ]

    static let plainEntities = [
        "Account", "Album", "Attachment", "Bookmark", "Calendar", "Channel", "Comment", "Contact", "Conversation",
        "Device",
        "Document", "Draft", "Event", "Folder", "Invitation", "Label", "Location", "Note", "Notification", "Playlist",
        "Post", "Preference", "Profile", "Project", "Reaction", "Receipt", "Reminder", "Session", "Subscription", "Tag",
        "Task", "Team", "Thread", "Track", "Workspace", "Badge", "Category", "Favorite", "Invoice", "Mailbox", "Widget",
    ]

    /// The first version.
    static var initial: HistoryModel {
        var model = HistoryModel()
        for (index, name) in plainEntities.enumerated() {
            model.addEntity(
                HistoryModel.Entity(name: name, attributes: plainAttributeList(index: index, count: 4 + index % 4)))
        }
        model.addEntity(
            HistoryModel.Entity(name: "Message", isAbstract: true, attributes: plainAttributeList(index: 3, count: 4)))
        model.addEntity(HistoryModel.Entity(name: "Asset", attributes: plainAttributeList(index: 5, count: 5)))
        model.addEntity(
            HistoryModel.Entity(name: "Member", isAbstract: true, attributes: plainAttributeList(index: 7, count: 3)))
        for (child, parent) in [
            ("TextMessage", "Message"), ("ImageMessage", "Message"), ("SystemMessage", "Message"),
            ("ImageAsset", "Asset"),
            ("VideoAsset", "Asset"), ("User", "Member"), ("Bot", "Member"),
        ] {
            let attributes = [
                HistoryModel.Attribute(
                    name: "\(child.prefix(1).lowercased())\(child.dropFirst())Kind", type: "Integer 32")
            ]
            model.addEntity(HistoryModel.Entity(name: child, parent: parent, attributes: attributes))
        }
        for (entity, name, type) in [
            ("Contact", "phone", "String"), ("Conversation", "topic", "String"), ("Message", "text", "String"),
            ("Document", "filename", "String"), ("User", "nick", "String"), ("Track", "length", "Integer 64"),
            ("Account", "legacyToken", "String"), ("Post", "viewCount", "Integer 32"),
            ("Session", "lastAddress", "String"),
            ("Event", "reminderOffset", "Integer 64"), ("Device", "pushToken", "String"),
            ("Profile", "avatarURL", "String"),
            ("Tag", "name", "String"), ("Task", "status", "Integer 16"), ("Bookmark", "pageUrl", "String"),
            ("Event", "calendarId", "String"), ("Profile", "displayname", "String"),
        ] {
            model.addAttribute(HistoryModel.Attribute(name: name, type: type), to: entity)
        }
        model.addAttribute(
            HistoryModel.Attribute(name: "pinned", type: "Boolean", optional: false, defaultValue: "NO"), to: "Note")
        for (entity, _, _) in widenings {
            model.addAttribute(HistoryModel.Attribute(name: "level", type: "Integer 16"), to: entity)
        }
        model.makeUnique("name", of: "Tag")
        model.link(
            "Conversation", "messages", toMany: true, ordered: true, to: "Message", "conversation", inverseToMany: false
        )
        model.link("Conversation", "participants", toMany: true, to: "User", "conversations", inverseToMany: true)
        model.link("Team", "members", toMany: true, to: "Member", "team", inverseToMany: false)
        model.link("Message", "reactions", toMany: true, to: "Reaction", "message", inverseToMany: false)
        model.link("Message", "receipts", toMany: true, to: "Receipt", "message", inverseToMany: false)
        model.link("ImageMessage", "image", to: "ImageAsset", "messages", inverseToMany: true)
        model.link("Note", "tags", toMany: true, to: "Tag", "notes", inverseToMany: true)
        model.link("Note", "labels", toMany: true, to: "Label", "notes", inverseToMany: true)
        model.link("Playlist", "tracks", toMany: true, ordered: true, to: "Track", "playlists", inverseToMany: true)
        model.link("Album", "tracks", toMany: true, ordered: true, to: "Track", "album", inverseToMany: false)
        model.link("Project", "tasks", toMany: true, ordered: true, to: "Task", "project", inverseToMany: false)
        model.link("Workspace", "projects", toMany: true, to: "Project", "workspace", inverseToMany: false)
        model.link("Folder", "documents", toMany: true, to: "Document", "folder", inverseToMany: false)
        model.link("Post", "comments", toMany: true, ordered: true, to: "Comment", "post", inverseToMany: false)
        model.link("Channel", "threads", toMany: true, to: "Thread", "channel", inverseToMany: false)
        model.link("Account", "devices", toMany: true, to: "Device", "account", inverseToMany: false)
        model.link("Account", "sessions", toMany: true, to: "Session", "account", inverseToMany: false)
        model.link("Calendar", "events", toMany: true, to: "Event", "calendar", inverseToMany: false)
        model.link("Location", "events", toMany: true, to: "Event", "location", inverseToMany: false)
        model.link("User", "profile", to: "Profile", "user", inverseToMany: false)
        model.link("Attachment", "asset", to: "Asset", "attachments", inverseToMany: true)
        model.link("Conversation", "drafts", toMany: true, to: "Draft", "conversation", inverseToMany: false)
        model.link("Category", "posts", toMany: true, to: "Post", "category", inverseToMany: false)
        model.link("User", "favorites", toMany: true, to: "Favorite", "user", inverseToMany: false)
        return model
    }

    private static func plainAttributeList(index: Int, count: Int) -> [HistoryModel.Attribute] {
        (0..<count).map { offset in
            let (name, type) = plainAttributes[(index + offset) % plainAttributes.count]
            return type == "Boolean"
                ? HistoryModel.Attribute(name: name, type: type, optional: false, defaultValue: "NO")
                : HistoryModel.Attribute(name: name, type: type)
        }
    }

    /// `Integer 16` attributes named `level`: the version each becomes `Integer 32`, and `Integer 64`.
    static let widenings = [
        ("Account", 8, 56), ("Conversation", 16, 64), ("Track", 24, 72), ("Task", 32, 80), ("Event", 40, 88),
    ]
    /// Attributes renamed twice: the entity, the names in turn and the versions of the renames.
    static let renames = [
        ("Contact", ["phone", "phoneNumber", "primaryPhone"], [10, 55]),
        ("Conversation", ["topic", "subject", "displayTopic"], [20, 65]),
        ("Message", ["text", "body", "content"], [25, 75]),
        ("Document", ["filename", "fileName", "storedFileName"], [30, 85]),
        ("User", ["nick", "handle", "username"], [35, 95]),
    ]
    /// Renames that change only the case of a name (`elementID` the former name): entity, names, version.
    static let caseRenames = [
        ("Bookmark", "pageUrl", "pageURL", 33), ("Event", "calendarId", "calendarID", 44),
        ("Profile", "displayname", "displayName", 27),
    ]
    /// Attributes dropped at one version and added again (empty) twenty versions later.
    static let dropped = [
        ("Event", "reminderOffset", "Integer 64", 7), ("Account", "legacyToken", "String", 12),
        ("Post", "viewCount", "Integer 32", 22),
        ("Note", "pinned", "Boolean", 52), ("Session", "lastAddress", "String", 62),
    ]

    /// Changes `model`, at version `version - 1`, into version `version`.
    static func apply(version: Int, to model: inout HistoryModel) {
        let names = model.entityNames
        let added = addedTypes[version % addedTypes.count]
        model.addAttribute(
            HistoryModel.Attribute(name: "added\(version)", type: added), to: names[(version * 7) % names.count])
        // Every third version from 2 (not the last, 96: the yardstick adds one optional attribute and nothing else).
        if version % 3 == 2 {
            let required: HistoryModel.Attribute
            switch version % 9 {
            case 2:
                required = HistoryModel.Attribute(
                    name: "required\(version)", type: "Boolean", optional: false, defaultValue: "NO")
            case 5:
                required = HistoryModel.Attribute(
                    name: "required\(version)", type: "Integer 32", optional: false, defaultValue: "0")
            default:
                required = HistoryModel.Attribute(
                    name: "required\(version)", type: "String", optional: false, defaultValue: "none")
            }
            model.addAttribute(required, to: names[(version * 11 + 5) % names.count])
        }
        for (entity, to32, to64) in widenings {
            if version == to32 { model.changeAttribute("level", of: entity) { $0.type = "Integer 32" } }
            if version == to64 { model.changeAttribute("level", of: entity) { $0.type = "Integer 64" } }
        }
        for (entity, names, versions) in renames {
            for (offset, at) in versions.enumerated() where at == version {
                model.renameAttribute(names[offset], of: entity, to: names[offset + 1])
            }
        }
        for (entity, from, to, at) in caseRenames where at == version {
            model.renameAttribute(from, of: entity, to: to)
        }
        for (entity, name, type, at) in dropped {
            if version == at { model.removeAttribute(name, of: entity) }
            if version == at + 20 { model.addAttribute(HistoryModel.Attribute(name: name, type: type), to: entity) }
        }
        applyStructural(version: version, to: &model)
    }

    /// The versions' one-off changes: entities added, renamed and removed, relationships added and renamed.
    private static func applyStructural(version: Int, to model: inout HistoryModel) {
        switch version {
        case 15:
            model.addEntity(HistoryModel.Entity(name: "Poll", attributes: plainAttributeList(index: 2, count: 4)))
            model.link("Message", "polls", toMany: true, to: "Poll", "message", inverseToMany: false)
        case 18:
            model.link("Label", "conversations", toMany: true, to: "Conversation", "labels", inverseToMany: true)
        case 30:
            model.addEntity(HistoryModel.Entity(name: "Sticker", attributes: plainAttributeList(index: 4, count: 3)))
            model.link("Sticker", "asset", to: "Asset", "stickers", inverseToMany: true)
        case 38:
            model.renameEntity("Draft", to: "Composition")
        case 40:
            model.renameRelationship("threads", of: "Channel", to: "topics")
        case 45:
            model.addEntity(HistoryModel.Entity(name: "Mention", attributes: plainAttributeList(index: 6, count: 3)))
            model.link(
                "TextMessage", "mentions", toMany: true, ordered: true, to: "Mention", "message", inverseToMany: false)
            model.link("User", "mentions", toMany: true, to: "Mention", "user", inverseToMany: false)
        case 50:
            model.removeEntity("Receipt")
        case 53:
            model.changeRelationship("documents", of: "Folder") { $0.ordered = true }
        case 58:
            model.changeAttribute("status", of: "Task") { attribute in
                attribute.optional = false
                attribute.defaultValue = "0"
            }
        case 60:
            model.addEntity(
                HistoryModel.Entity(
                    name: "CallMessage", parent: "Message",
                    attributes: [HistoryModel.Attribute(name: "callDuration", type: "Double")]))
        case 66:
            model.link("Reminder", "task", to: "Task", "reminders", inverseToMany: true)
        case 75:
            model.addEntity(HistoryModel.Entity(name: "Backup", attributes: plainAttributeList(index: 8, count: 5)))
            model.link("Account", "backups", toMany: true, to: "Backup", "account", inverseToMany: false)
        case 90:
            model.addEntity(HistoryModel.Entity(name: "Feature", attributes: plainAttributeList(index: 9, count: 4)))
        case 92:
            model.renameRelationship("topics", of: "Channel", to: "discussions")
        case 93:
            model.renameEntity("Composition", to: "DraftMessage")
        default:
            break
        }
        if version == 47 { model.removeAttribute("pushToken", of: "Device") }
        if version == 70 { model.removeAttribute("avatarURL", of: "Profile") }
    }

    /// Every version's model, the first one first.
    static var all: [HistoryModel] {
        var model = initial
        var models = [model]
        for version in 2...versions {
            apply(version: version, to: &model)
            models.append(model)
        }
        return models
    }
}
