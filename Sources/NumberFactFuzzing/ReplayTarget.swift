import Foundation
import TaskProvidingTesting

/// The whole input is a replay string, as a person pastes it.
enum ReplayTarget {
  static func run(_ input: Data) {
    let text = input.text
    guard case .success(let departures) = ReplayString.decode(text) else { return }
    let again = ReplayString.encode(departures)
    guard case .success(let decoded) = ReplayString.decode(again), decoded == departures else {
      violated(.replay, "its encoding does not decode to the same schedule", text)
    }
  }
}
