import CustomDump
import Observation

/// Returns as soon as `condition` holds for `model`, re-checking it each time a property it
/// read changes; throws if that has not happened within `timeout`.
///
/// ```swift
/// model.getFactButtonTapped()  // spawned somewhere the test cannot reach
/// try await waitUntil(model) { $0.fact != nil }
/// ```
///
/// Use it when the test cannot reach the work it waits for, only its effect on the state.
/// It is built on Observation, so it waits without polling: the condition runs once now and
/// once after each change to what it read. A state that lasts only within one turn of the
/// main actor (set, then reset before the actor is free) cannot be seen by any observer.
///
/// - Parameters:
///   - model: An `@Observable` model isolated to the main actor.
///   - timeout: Bounds a failure only; success returns as soon as the condition holds.
///   - condition: Reads the model; re-run after each change to what it read.
/// - Throws: ``WaitUntilTimeoutError`` describing the model as last observed.
@MainActor
public func waitUntil<Model: AnyObject & Observable>(
  _ model: Model,
  timeout: Duration = .seconds(5),
  _ condition: @escaping @MainActor (Model) -> Bool
) async throws {
  let (changes, continuation) = AsyncStream.makeStream(
    of: Void.self, bufferingPolicy: .bufferingNewest(1))
  // Registers interest in what `condition` reads; `onChange` fires once, before the write.
  func check() -> Bool {
    withObservationTracking {
      condition(model)
    } onChange: {
      continuation.yield()
    }
  }
  if check() { return }
  let timer = Task {
    try? await Task.sleep(for: timeout)  // failure bound
    continuation.finish()
  }
  defer { timer.cancel() }
  // Each change resumes this loop after the write has finished, back on the main actor.
  // The loop ends without a match at the timeout or when the waiting task is cancelled.
  for await _ in changes where check() { return }
  if condition(model) { return }
  try Task.checkCancellation()
  throw WaitUntilTimeoutError(timeout: timeout, lastObserved: String(customDumping: model))
}

/// Thrown by ``waitUntil(_:timeout:_:)`` when the condition did not hold in time.
public struct WaitUntilTimeoutError: Error, CustomStringConvertible {
  /// How long the wait lasted.
  public let timeout: Duration
  /// The model as it was when the wait gave up.
  public let lastObserved: String

  public var description: String {
    "The condition did not hold within \(timeout). Last observed:\n\(lastObserved)"
  }
}
