import Foundation

@testable import Remodel
@testable import RemodelModel

/// A Core Data store shaped like Apple Notes' `NotesV7.storedata` (its schema is quoted by plaso's
/// `macos_notes` parser, docs/CORE-DATA-STORES.md): to-ones into hierarchies with Core Data's entity
/// number beside them (`ZACCOUNT`, `Z1_ACCOUNT`; `ZFOLDER1`, `Z5_FOLDER1` where two sub-entities of one
/// hierarchy both declare `folder`), a to-one into a sub-entity without sub-entities (no number beside
/// it), a Transformable attribute, and a to-many relationship without an inverse.
enum CoreDataNotesStore {
    /// Account 1 (IMAPAccount 2, LocalAccount 3), Attachment 4, Folder 5 (TrashFolder 6), Note 7
    /// (ChecklistNote 8), OfflineAction 9 (CopyAction 10, MoveAction 11): depth-first, siblings by name.
    static let entities = """
        <entity name="Account" representedClassName="Account" isAbstract="YES">
            <attribute name="name" attributeType="String"/>
            <relationship name="folders" optional="YES" toMany="YES" destinationEntity="Folder" inverseName="account" inverseEntity="Folder"/>
            <relationship name="trash" optional="YES" maxCount="1" destinationEntity="TrashFolder"/>
            <relationship name="pinned" optional="YES" toMany="YES" ordered="YES" destinationEntity="Note"/>
        </entity>
        <entity name="IMAPAccount" parentEntity="Account">
            <attribute name="host" optional="YES" attributeType="String"/>
        </entity>
        <entity name="LocalAccount" parentEntity="Account"/>
        <entity name="Attachment">
            <attribute name="fileName" attributeType="String"/>
            <relationship name="note" optional="YES" maxCount="1" destinationEntity="Note" inverseName="attachments" inverseEntity="Note"/>
        </entity>
        <entity name="Folder">
            <attribute name="name" attributeType="String"/>
            <relationship name="account" optional="YES" maxCount="1" destinationEntity="Account" inverseName="folders" inverseEntity="Account"/>
            <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="children" inverseEntity="Folder"/>
            <relationship name="children" optional="YES" toMany="YES" destinationEntity="Folder" inverseName="parent" inverseEntity="Folder"/>
            <relationship name="notes" optional="YES" toMany="YES" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
        </entity>
        <entity name="TrashFolder" parentEntity="Folder"/>
        <entity name="Note">
            <attribute name="title" attributeType="String"/>
            <attribute name="color" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
            <relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
            <relationship name="attachments" optional="YES" toMany="YES" destinationEntity="Attachment" inverseName="note" inverseEntity="Attachment"/>
        </entity>
        <entity name="ChecklistNote" parentEntity="Note">
            <attribute name="items" optional="YES" attributeType="Integer 32"/>
        </entity>
        <entity name="OfflineAction" isAbstract="YES">
            <attribute name="sequence" attributeType="Integer 64"/>
        </entity>
        <entity name="CopyAction" parentEntity="OfflineAction">
            <relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder"/>
        </entity>
        <entity name="MoveAction" parentEntity="OfflineAction">
            <relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder"/>
        </entity>
        """

    static let names = [
        "Account", "IMAPAccount", "LocalAccount", "Attachment", "Folder", "TrashFolder", "Note", "ChecklistNote",
        "OfflineAction", "CopyAction", "MoveAction",
    ]

    /// The join table of `Account.pinned` (no inverse): its members' column is named after the
    /// relationship, as in every join table; its owners' column is named after nothing, so the test gives
    /// it a name nothing else has, and the importer must not depend on it.
    static let pinnedOwnerColumn = "Z_1PINNEDOWNER"

    /// Writes the store at `path` with `extraSQL` run last; with `modelCache`, also its compiled model.
    @discardableResult
    static func write(at path: String, extraSQL: [String] = [], modelCache: [UInt8]? = nil) throws -> String {
        let connection = try SQLiteConnection(path: path, mode: .create)
        let plist = BinaryPropertyListWriter.encode(
            .dictionary([
                ("NSStoreModelVersionHashes", .dictionary(names.map { ($0, .data(Array(repeating: 3, count: 32))) })),
                ("NSStoreModelVersionIdentifiers", .array([.string("")])),
                ("NSStoreModelVersionHashesVersion", .integer(3)),
                ("NSPersistenceFrameworkVersion", .integer(1344)),
            ]))
        let parents = [0, 0, 1, 1, 0, 0, 5, 0, 7, 0, 9, 9]
        let keys = names.enumerated().map { "(\($0.offset + 1), '\($0.element)', \(parents[$0.offset + 1]), 3)" }
        let statements = [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "INSERT INTO Z_PRIMARYKEY VALUES " + keys.joined(separator: ", "),
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
            "CREATE TABLE ZACCOUNT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTRASH INTEGER, ZHOST VARCHAR, ZNAME VARCHAR )",
            "CREATE TABLE ZATTACHMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNOTE INTEGER, Z7_NOTE INTEGER, ZFILENAME VARCHAR )",
            "CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZACCOUNT INTEGER, Z1_ACCOUNT INTEGER, ZPARENT INTEGER, Z5_PARENT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZITEMS INTEGER, ZFOLDER INTEGER, Z5_FOLDER INTEGER, ZTITLE VARCHAR, ZCOLOR BLOB )",
            "CREATE TABLE ZOFFLINEACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSEQUENCE INTEGER, ZFOLDER INTEGER, Z5_FOLDER INTEGER, ZFOLDER1 INTEGER, Z5_FOLDER1 INTEGER )",
            "CREATE TABLE Z_1PINNED ( \(pinnedOwnerColumn) INTEGER, Z_7PINNED INTEGER, Z_FOK_7PINNED INTEGER, PRIMARY KEY (\(pinnedOwnerColumn), Z_7PINNED) )",
            "INSERT INTO ZACCOUNT VALUES (1, 2, 1, 3, 'imap.example.com', 'iCloud'), (2, 3, 1, NULL, NULL, 'On My Mac')",
            "INSERT INTO ZFOLDER VALUES (1, 5, 1, 1, 2, NULL, NULL, 'Notes'), (2, 5, 1, 1, 2, 1, 5, 'Work'), (3, 6, 1, 1, 2, NULL, NULL, 'Trash'), (4, 5, 1, 2, 3, NULL, NULL, 'Local')",
            "INSERT INTO ZNOTE VALUES (1, 7, 1, NULL, 1, 5, 'Hello', X'62706C6973743030'), (2, 8, 1, 3, 2, 5, 'Groceries', NULL), (3, 7, 1, NULL, 3, 6, 'Old', NULL)",
            "INSERT INTO ZATTACHMENT VALUES (1, 4, 1, 2, 8, 'list.png'), (2, 4, 1, NULL, NULL, 'loose.pdf')",
            "INSERT INTO ZOFFLINEACTION VALUES (1, 10, 1, 100, 1, 5, NULL, NULL), (2, 11, 1, 101, NULL, NULL, 3, 6)",
            "INSERT INTO Z_1PINNED VALUES (1, 2, 2048), (1, 1, 1024), (2, 2, 1024)",
            "CREATE INDEX ZFOLDER_ZACCOUNT_INDEX ON ZFOLDER (ZACCOUNT, Z1_ACCOUNT)",
        ]
        for sql in statements + extraSQL { try connection.execute(sql) }
        try connection.run("INSERT INTO Z_METADATA VALUES (1, 'N1', ?)", [.blob(Data(plist))])
        if let modelCache { try connection.run("INSERT INTO Z_MODELCACHE VALUES (?)", [.blob(Data(modelCache))]) }
        return path
    }

    /// The bundle `Notes.xcdatamodeld` (one version, `Notes`) in `folder`.
    static func bundle(in folder: String) throws -> String {
        try BundleWriting.write("Notes", in: folder, versions: [("Notes", entities)])
    }

    /// The export every import of the store must give, object by object.
    static var expectedExport: [String: [[String: Any]]] {
        [
            "IMAPAccount": [
                [
                    "_pk": 1, "name": "iCloud", "host": "imap.example.com", "trash": 3, "folders": [1, 2, 3],
                    "pinned": [1, 2],
                ]
            ],
            "LocalAccount": [["_pk": 2, "name": "On My Mac", "trash": NSNull(), "folders": [4], "pinned": [2]]],
            "Folder": [
                ["_pk": 1, "name": "Notes", "account": 1, "parent": NSNull(), "children": [2], "notes": [1]],
                ["_pk": 2, "name": "Work", "account": 1, "parent": 1, "children": [] as [Int], "notes": [2]],
                [
                    "_pk": 4, "name": "Local", "account": 2, "parent": NSNull(), "children": [] as [Int],
                    "notes": [] as [Int],
                ],
            ],
            "TrashFolder": [
                ["_pk": 3, "name": "Trash", "account": 1, "parent": NSNull(), "children": [] as [Int], "notes": [3]]
            ],
            "Note": [
                ["_pk": 1, "title": "Hello", "color": "YnBsaXN0MDA=", "folder": 1, "attachments": [] as [Int]],
                ["_pk": 3, "title": "Old", "color": NSNull(), "folder": 3, "attachments": [] as [Int]],
            ],
            "ChecklistNote": [
                ["_pk": 2, "title": "Groceries", "color": NSNull(), "items": 3, "folder": 2, "attachments": [1]]
            ],
            "Attachment": [
                ["_pk": 1, "fileName": "list.png", "note": 2], ["_pk": 2, "fileName": "loose.pdf", "note": NSNull()],
            ],
            "CopyAction": [["_pk": 1, "sequence": 100, "folder": 1]],
            "MoveAction": [["_pk": 2, "sequence": 101, "folder": 3]],
        ]
    }
}
