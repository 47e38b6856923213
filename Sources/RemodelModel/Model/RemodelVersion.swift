/// Remodel's own version, as `remodel --version` prints it: `0.1.0` until the first release is tagged.
/// The store and JSON formats have versions of their own (docs/STORE-LAYOUT.md, docs/JSON.md).
///
/// For example:
/// ```swift
/// print("Remodel \(Remodel.version)")
/// ```
public let version = "0.1.0"
