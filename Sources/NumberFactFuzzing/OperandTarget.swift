import FactClient
import Foundation

/// The first byte picks the kind; the rest is one operand of `numberfact fact`.
enum OperandTarget {
  static let limit = 10_000

  static func run(_ input: Data) {
    guard let first = input.first else { return }
    let kind = FactKind.allCases[Int(first) % FactKind.allCases.count]
    let operand = input.dropFirst().text
    let numbers: [Int]
    do {
      numbers = try FactOperand.numbers(in: operand, kind: kind, limit: limit)
    } catch {
      if !error.description.contains("'\(operand)'") && !error.description.contains("Int") {
        violated(.operand, "a message that does not name the operand", operand)
      }
      return
    }
    if numbers.isEmpty || numbers.count > limit {
      violated(.operand, "\(numbers.count) numbers", operand)
    }
    if zip(numbers, numbers.dropFirst()).contains(where: { $0 + 1 != $1 }) {
      violated(.operand, "a range with a gap", operand)
    }
    if operand.contains("/"), !(1...366).contains(numbers[0]) {
      violated(.operand, "a date outside the year", operand)
    }
  }
}
