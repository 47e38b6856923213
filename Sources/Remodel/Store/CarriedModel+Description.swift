extension CarriedModel: CustomStringConvertible {
    /// `version "Library 3" of model "Library" (2,051 bytes of contents XML, layout format 1)`.
    public var description: String {
        "version \"\(versionName)\" of model \"\(modelName)\" (\(groupedDigits(contents.utf8.count)) bytes of contents XML, layout format \(formatVersion))"
    }
}
