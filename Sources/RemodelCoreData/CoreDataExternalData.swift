import Foundation
import Remodel

/// Reads in, one file at a time, the Binary values Core Data kept in files beside the store: marker byte
/// 2, then the file's name in `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` (docs/CORE-DATA-STORES.md, "Values").
/// The copy left those values nil; each is set from its file. A missing file is refused, naming the
/// object, attribute and file, or, with ``CoreDataImport/MissingExternalData/empty``, left nil (or set
/// to empty bytes where the attribute is required) and listed.
struct CoreDataExternalData {
    let copier: CoreDataTableCopier
    let policy: CoreDataImport.MissingExternalData
    /// The store file whose support folder holds the files (the user's path, or where it leads).
    let storeFile: String

    /// The folder Core Data keeps the files in.
    var folder: String {
        let url = URL(fileURLWithPath: storeFile)
        return url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA").path
    }

    /// Reads the files of one table in; returns how many were read and the values left empty.
    func readIn(_ table: CoreDataMapping.Table) throws(RemodelError) -> (
        files: Int, emptied: [CoreDataImport.EmptiedValue]
    ) {
        var files = 0
        var emptied: [CoreDataImport.EmptiedValue] = []
        let connection = copier.connection
        let key = CoreDataName.primaryKey
        for column in table.columns {
            for item in column.sources where item.isExternal {
                let raw = quoteIdentifier(item.column)
                let select = try connection.prepare(
                    "SELECT s.\(key), s.\(CoreDataName.entityNumber), substr(s.\(raw), 2) FROM \(copier.sourceTable(table.source)) AS s WHERE \(CoreDataTableCopier.entityTest(item.numbers)) AND typeof(s.\(raw)) = 'blob' AND substr(s.\(raw), 1, 1) = X'02' ORDER BY s.\(key)"
                )
                let update = try connection.prepare(
                    "UPDATE main.\(quoteIdentifier(table.target)) SET \(quoteIdentifier(column.target)) = ? WHERE \(StoreColumn.pk) = ?"
                )
                while try select.step() {
                    guard case .integer(let object) = select.value(at: 0),
                        case .blob(let reference) = select.value(at: 2)
                    else { continue }
                    let entity = select.value(at: 1).coreDataInteger.flatMap { table.entityByNumber[$0] } ?? item.entity
                    let name = String(decoding: reference.prefix { $0 != 0 }, as: UTF8.self)
                    let file = folder + "/" + name
                    let data = Self.isFileName(name) ? FileManager.default.contents(atPath: file) : nil
                    if let data {
                        try update.bind([.blob(data), .integer(object)])
                        files += 1
                    } else {
                        guard policy == .empty else {
                            throw RemodelError(
                                .io,
                                "\(entity) \(key) \(object) attribute \"\(item.property)\": its bytes are kept in the file \(file), which cannot be read; copy the store with its \(URL(fileURLWithPath: folder).deletingLastPathComponent().lastPathComponent) folder and import again, or import it empty with --missing-external-data empty",
                                path: copier.source, entity: entity, property: item.property, primaryKey: object)
                        }
                        emptied.append(
                            CoreDataImport.EmptiedValue(
                                entity: entity, primaryKey: object, attribute: item.property, file: file,
                                isNil: item.isOptional))
                        guard !item.isOptional else { continue }
                        try update.bind([.blob(Data()), .integer(object)])
                    }
                    _ = try update.step()
                    update.reset()
                }
            }
        }
        return (files, emptied)
    }

    /// Whether a reference names a file in the folder itself: not empty, not `.` or `..`, no `/`. By bytes: a
    /// `/` that a combining mark follows is another character to Swift's string search, and still a `/` to the
    /// file system, which would then read outside the folder.
    static func isFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(UInt8(ascii: "/"))
    }
}
