import Foundation

/// The optional `.remodel-version-order` file of a bundle: every version name, oldest first,
/// one a line (with or without `.xcdatamodel`); `#` starts a comment line. A line may also
/// declare names the version had before its folder was renamed, after `<-`:
///
/// ```
/// App
/// App 2 <- App 2 beta <- App2
/// App 3
/// ```
///
/// A store that recorded `App 2 beta` is then at `App 2`.
enum VersionOrderFile {
    static let fileName = ModelBundle.versionOrderFileName

    /// The version names in migration order, the former names (former → now), and problems with the file.
    ///
    /// The file is read by bytes: its lines, its `#`, its `<-` and a name's `.xcdatamodel` are found whatever follows
    /// them (a combining mark after `<-` makes one character of `-` and the mark to Swift's string search, and is
    /// still the start of a name here), and names are compared byte for byte, as the file system names the
    /// versions' folders (``SQLName/identical(_:_:)``).
    static func order(_ names: [String], bundlePath: String) -> ([String], [String: String], [Diagnostic]) {
        let natural = names.sorted(by: NaturalOrder.areInIncreasingOrder)
        let orderPath = "\(bundlePath)/\(fileName)"
        guard let text = FileSystem.text(atPath: orderPath) else { return (natural, [:], []) }
        var diagnostics: [Diagnostic] = []
        var listed: [String] = []
        var former: [(old: String, now: String)] = []
        func isVersion(_ name: String) -> Bool { names.contains { SQLName.identical($0, name) } }
        let lines = Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (number, line) in lines.enumerated() {
            let trimmed = Self.trimmed(line[...])
            guard !trimmed.isEmpty, trimmed.first != UInt8(ascii: "#") else { continue }
            let parts = Self.split(trimmed, on: Array("<-".utf8)).map { Self.bare(Self.trimmed($0)) }
            let name = parts[0]
            let location = SourceLocation(file: orderPath, line: number + 1, column: 1)
            guard isVersion(name) else {
                diagnostics.append(
                    Diagnostic(
                        .error, rule: .versionOrderUnknown,
                        message: "the version order names '\(name)', which is not a version of this bundle",
                        at: location))
                continue
            }
            if !listed.contains(where: { SQLName.identical($0, name) }) { listed.append(name) }
            for old in parts.dropFirst() where !old.isEmpty {
                if isVersion(old) {
                    diagnostics.append(
                        Diagnostic(
                            .error, rule: .versionOrderFormerName,
                            message:
                                "'\(old)' is declared a former name of '\(name)', but it is a version of this bundle; a former name must be one no version has now",
                            at: location))
                } else if let other = former.first(where: { SQLName.identical($0.old, old) })?.now,
                    !SQLName.identical(other, name)
                {
                    diagnostics.append(
                        Diagnostic(
                            .error, rule: .versionOrderFormerName,
                            message:
                                "'\(old)' is declared a former name of both '\(other)' and '\(name)'; keep it on one line",
                            at: location))
                } else if !former.contains(where: { SQLName.identical($0.old, old) }) {
                    former.append((old, name))
                }
            }
        }
        for name in natural where !listed.contains(where: { SQLName.identical($0, name) }) {
            diagnostics.append(
                Diagnostic(
                    .error, rule: .versionOrderIncomplete,
                    message:
                        "the version order does not list version '\(name)'; add it on its own line where it belongs",
                    at: SourceLocation(file: orderPath, line: 1, column: 1)))
            listed.append(name)
        }
        var formerNames: [String: String] = [:]
        for (old, now) in former { formerNames[old] = now }
        return (listed, formerNames, diagnostics)
    }

    /// The bytes without the spaces, tabs and carriage returns around them.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) })
        else { return [] }
        return bytes[first...last]
    }

    /// The pieces of `bytes` between the occurrences of `separator`.
    private static func split(_ bytes: ArraySlice<UInt8>, on separator: [UInt8]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index + separator.count <= bytes.endIndex {
            if bytes[index..<(index + separator.count)].elementsEqual(separator) {
                pieces.append(bytes[start..<index])
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(bytes[start..<bytes.endIndex])
        return pieces
    }

    /// A name without its `.xcdatamodel`, as text.
    private static func bare(_ bytes: ArraySlice<UInt8>) -> String {
        let suffix = Array(".xcdatamodel".utf8)
        let name =
            bytes.count > suffix.count && bytes.suffix(suffix.count).elementsEqual(suffix)
            ? bytes.dropLast(suffix.count) : bytes
        return String(decoding: name, as: UTF8.self)
    }
}
