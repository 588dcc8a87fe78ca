import Foundation

/// An operand of `numberfact fact` that is not a number, a range or a date, and why.
package struct FactOperandError: Error, Equatable, CustomStringConvertible {
  /// The message for the person, naming the operand.
  package let description: String

  /// An error with `description` as its message.
  package init(_ description: String) {
    self.description = description
  }
}

/// What an operand of `numberfact fact` names: a number (`42`), a range (`1..5`) or, with
/// the date kind, a day of the year (`2/29`).
package enum FactOperand {
  /// The numbers one operand stands for.
  package static func numbers(
    in operand: String, kind: FactKind, limit: Int
  ) throws(FactOperandError) -> [Int] {
    if let number = Int(operand) { return [number] }
    if operand.contains("/") {
      guard let date = FactDate(parsing: operand) else {
        throw FactOperandError(
          "'\(operand)' is not a date: write month/day, such as 2/29 or 12/31.")
      }
      guard kind == .date else {
        // Names the kind in force: "add --kind date" read as nonsense after --kind year.
        throw FactOperandError(
          "'\(operand)' is a date: dates go with --kind date, not \(kind.rawValue).")
      }
      return [date.dayOfYear]
    }
    let bounds = operand.components(separatedBy: "..")
    if bounds.count == 2 {
      guard let low = Int(bounds[0]), let high = Int(bounds[1]) else {
        throw FactOperandError(
          "'\(operand)' is not a range of whole numbers: write it as 1..5 or -3..3.")
      }
      guard low <= high else {
        throw FactOperandError(
          "'\(operand)' is empty: put the smaller number first (\(high)..\(low)).")
      }
      let (span, overflow) = high.subtractingReportingOverflow(low)
      guard !overflow, span < limit else {
        throw FactOperandError(
          "'\(operand)' is more than \(limit.formatted()) numbers; ask for fewer at a time.")
      }
      return Array(low...high)
    }
    let looksNumeric =
      operand.contains(where: \.isNumber)
      && operand.allSatisfy { $0.isNumber || $0 == "-" || $0 == "+" }
    throw FactOperandError(
      looksNumeric && !operand.isEmpty
        ? "'\(operand)' does not fit in a 64-bit Int (from \(Int.min) to \(Int.max))."
        : "'\(operand)' is not a number, a range (1..5), a date (2/29) or random.")
  }
}
