/// A day of the year as date facts count them: in a leap year, so February 29 is day 60 and
/// December 31 is day 366.
package struct FactDate: Hashable, Sendable, CustomStringConvertible {
  /// The month, 1 to 12.
  package let month: Int
  /// The day of the month, 1 to 31.
  package let day: Int

  static let months = [
    ("January", 31), ("February", 29), ("March", 31), ("April", 30), ("May", 31),
    ("June", 30), ("July", 31), ("August", 31), ("September", 30), ("October", 31),
    ("November", 30), ("December", 31),
  ]

  /// The date `month`/`day`, or `nil` when no leap year has it (2/30, 4/31, 13/1).
  package init?(month: Int, day: Int) {
    guard (1...12).contains(month), (1...Self.months[month - 1].1).contains(day) else {
      return nil
    }
    self.month = month
    self.day = day
  }

  /// The date of day `dayOfYear` of a leap year, or `nil` outside 1 to 366.
  package init?(dayOfYear: Int) {
    guard (1...366).contains(dayOfYear) else { return nil }
    var rest = dayOfYear
    for (index, (_, length)) in Self.months.enumerated() {
      if rest <= length {
        self.init(month: index + 1, day: rest)
        return
      }
      rest -= length
    }
    return nil
  }

  /// Reads "2/29" or "02/29": month, then day.
  package init?(parsing text: some StringProtocol) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 }),
      let month = Int(parts[0]), let day = Int(parts[1])
    else { return nil }
    self.init(month: month, day: day)
  }

  /// Which day of a leap year this is: 1 to 366.
  package var dayOfYear: Int {
    Self.months.prefix(month - 1).reduce(0) { $0 + $1.1 } + day
  }

  /// "February 29".
  package var description: String { "\(Self.months[month - 1].0) \(day)" }
}
