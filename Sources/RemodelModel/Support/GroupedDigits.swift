/// `1234567` as `1,234,567`, the way the command line prints counts.
package func groupedDigits(_ number: Int) -> String {
    let digits = Array(String(number.magnitude))
    var result = number < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result += "," }
        result.append(digit)
    }
    return result
}
