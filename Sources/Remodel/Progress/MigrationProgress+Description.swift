extension MigrationProgress: CustomStringConvertible {
    /// Where the migration is, in the words of the command line's bar: `48% step 1/2 validation Book
    /// 375,000/400,000`.
    public var description: String {
        let percent = Int((fraction * 100).rounded(.down))
        let entity = self.entity.map { " \($0)" } ?? ""
        let counts = total > 0 ? " \(groupedDigits(completed))/\(groupedDigits(total))" : ""
        return "\(percent)% step \(step)/\(steps) \(phase.rawValue)\(entity)\(counts)"
    }
}
