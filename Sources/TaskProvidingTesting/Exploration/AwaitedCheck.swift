/// A property of a scenario that is read with `await`: the `invariant` or `atEnd` of an
/// ``Exploration`` given an `async` check.
struct AwaitedCheck {
  /// How a failure names it.
  let name: String
  /// Reads the state; `false` fails the schedule.
  let holds: @MainActor () async -> Bool
}
