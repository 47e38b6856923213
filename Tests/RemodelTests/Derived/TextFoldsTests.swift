import Foundation
import Testing

@testable import Remodel

/// The store's text folds (``TextFolds``) are what Foundation makes of each character they cover, and cover every
/// character of their ranges that Foundation changes: Core Data's `lowercase:`, `uppercase:` and `canonical:` use
/// Foundation's.
struct TextFoldsTests {
    private static func foundation(_ function: Derivation.Function, _ text: String) -> String {
        switch function {
        case .lowercase: return text.lowercased()
        case .uppercase: return text.uppercased()
        case .canonical:
            // A combining mark is folded as it is after a letter (where text holds it), not alone.
            if let scalar = text.unicodeScalars.first, isCombiningMark(scalar) {
                return String(
                    ("a" + text).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).dropFirst())
            }
            return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
    }

    private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        (0x300...0x36F).contains(scalar.value) || (0x483...0x489).contains(scalar.value)
    }

    @Test(arguments: Derivation.Function.allCases)
    func eachCharacterFoldsAsFoundationFoldsIt(_ function: Derivation.Function) {
        let pairs = TextFolds.pairs(function)
        #expect(pairs.count > 600)
        var covered: Set<String> = []
        for (character, folded) in pairs {
            covered.insert(character)
            let expected = Self.foundation(function, character)
            #expect(
                Array(folded.unicodeScalars) == Array(expected.unicodeScalars),
                "\(function) of U+\(String(character.unicodeScalars.first?.value ?? 0, radix: 16))")
        }
        for range: ClosedRange<UInt32> in [0x80...0x52F, 0x1E00...0x1FFF] {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = String(scalar)
                if Self.foundation(function, text).unicodeScalars.elementsEqual(text.unicodeScalars) { continue }
                let category = scalar.properties.generalCategory
                guard
                    [
                        .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .modifierLetter,
                        .nonspacingMark, .spacingMark, .enclosingMark, .otherSymbol, .otherNumber,
                    ].contains(category)
                else { continue }
                #expect(covered.contains(text), "\(function) leaves out U+\(String(value, radix: 16))")
            }
        }
    }
}
