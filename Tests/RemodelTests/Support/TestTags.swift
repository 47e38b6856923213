import Foundation
import Testing

/// The tags an everyday run leaves out: every test runs in CI, and a quick run before a commit skips what
/// needs `../shared` or takes whole seconds with
/// `REMODEL_SKIP_TAGS=corpus,crash,concurrency,slow swift test --skip-build` (this toolchain's `swift test`
/// cannot filter by tag yet, so each tagged suite also carries ``Testing/Trait/skippable(_:)``).
extension Tag {
    /// Reads the real models and stores of `../shared/corpus` or `../shared/corpus-coredata` (and skips
    /// where they are absent).
    @Tag static var corpus: Self
    /// Kills a process at a fault point and checks what it left.
    @Tag static var crash: Self
    /// Runs processes or tasks against one store at once.
    @Tag static var concurrency: Self
    /// Takes seconds on its own: many stores, many versions or many generated cases.
    @Tag static var slow: Self
}

extension Trait where Self == ConditionTrait {
    /// Off when the comma-separated `REMODEL_SKIP_TAGS` names `tag` (`corpus` for ``Testing/Tag/corpus``).
    static func skippable(_ tag: Tag) -> Self {
        let name = String(describing: tag).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        let skipped = (ProcessInfo.processInfo.environment["REMODEL_SKIP_TAGS"] ?? "").split(separator: ",")
        return .enabled(
            if: !skipped.contains { $0.trimmingCharacters(in: .whitespaces) == name },
            "REMODEL_SKIP_TAGS leaves out \(name)")
    }
}
