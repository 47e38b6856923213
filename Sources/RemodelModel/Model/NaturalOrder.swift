/// Natural sort: runs of digits compare as numbers, so "Model 2" < "Model 10".
package enum NaturalOrder {
    package static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        let left = chunks(lhs)
        let right = chunks(rhs)
        for (a, b) in zip(left, right) where a != b {
            switch (a, b) {
            case (.number(let x, let xText), .number(let y, let yText)):
                if x != y { return x < y }
                return xText < yText
            case (.number, .text): return true
            case (.text, .number): return false
            case (.text(let x), .text(let y)): return x < y
            }
        }
        if left.count != right.count { return left.count < right.count }
        return lhs < rhs
    }

    private enum Chunk: Equatable {
        case text(String)
        case number(Double, String)
    }

    private static func chunks(_ string: String) -> [Chunk] {
        var result: [Chunk] = []
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            result.append(inDigits ? .number(Double(current) ?? 0, current) : .text(current))
            current = ""
        }
        for character in string {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inDigits { flush(); inDigits = isDigit }
            current.append(character)
        }
        flush()
        return result
    }
}
