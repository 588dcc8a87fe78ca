import CustomDump
import Observation
import TaskProviding

// Repeated on purpose (docs/architecture.md): every wait spells out its timeout, call-site and
// isolation parameters, and every timeout error carries the same fields.

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
/// once after each change to what it read. It keeps the caller's isolation and starts no
/// task: a test on the main actor waiting for a main-actor model continues right after the
/// job that made the change, on the same thread. A state that lasts only within one turn of
/// the model's actor (set, then reset before the actor is free) cannot be seen by any
/// observer.
///
/// The source-location parameters default to the caller's: see `TaskSourceLocation`.
///
/// - `model`: An `@Observable` model, used from the caller's isolation (for a view model,
///   the main actor).
/// - `timeout`: Bounds a failure only; success returns as soon as the condition holds.
/// - `condition`: Reads the model; re-run after each change to what it read.
/// - `isolation`: The caller's isolation, kept across the wait.
/// - Throws: ``WaitUntilTimeoutError`` showing the model's observable properties as last
///   seen and naming this call's line; `CancellationError` if the waiting task is cancelled.
public func waitUntil<Model: AnyObject & Observable>(
  _ model: Model,
  timeout: Duration = .seconds(5),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  _ condition: (Model) -> Bool
) async throws {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while true {
    let changed = Waiter()
    // `onChange` fires once, in the write's `willSet`; resuming the waiter schedules this
    // task on the caller's actor, so it re-checks after the write has finished.
    let holds = withObservationTracking {
      condition(model)
    } onChange: {
      changed.resume(.value(()))
    }
    if holds { return }
    switch await changed.wait(timeout: clock.now.duration(to: deadline)) {
    case .value: continue
    case .cancelled: throw CancellationError()
    case .timedOut: break
    }
    if condition(model) { return }
    throw WaitUntilTimeoutError(
      timeout: timeout, lastObserved: observableState(of: model),
      location: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// Thrown by ``waitUntil(_:timeout:fileID:filePath:line:column:isolation:_:)`` when the
/// condition did not hold in time.
public struct WaitUntilTimeoutError: Error, CustomStringConvertible {
  /// How long the wait lasted.
  public let timeout: Duration
  /// The model's observable properties as they were when the wait gave up.
  public let lastObserved: String
  /// Where `waitUntil` was called, if known.
  public let location: TaskSourceLocation?

  /// Creates the error.
  public init(timeout: Duration, lastObserved: String, location: TaskSourceLocation? = nil) {
    self.timeout = timeout
    self.lastObserved = lastObserved
    self.location = location
  }

  /// What was awaited, where, and the model as last seen.
  public var description: String {
    let site = location.map { "waitUntil at \($0): " } ?? ""
    let shown = TimeoutScale.describe(timeout)
    return "\(site)The condition did not hold within \(shown). Last observed:\n\(lastObserved)"
  }
}

/// The model's observable properties, dumped: what a person reads when a wait fails.
///
/// `@Observable` stores each tracked property as `_name`; `@ObservationIgnored` ones (a
/// client, a provider, bookkeeping) keep their own names, and the registrar is `_$…`. So the
/// underscored children are exactly the observable state. A model that customizes its dump
/// (`CustomDumpReflectable` and its siblings) is dumped as it says.
func observableState(of model: some AnyObject) -> String {
  if model is any CustomDumpReflectable || model is any CustomDumpStringConvertible
    || model is any CustomDumpRepresentable
  {
    return String(customDumping: model)
  }
  let tracked = Mirror(reflecting: model).children.compactMap { child -> (String, Any)? in
    guard let label = child.label, label.hasPrefix("_"), !label.hasPrefix("_$") else {
      return nil
    }
    return (String(label.dropFirst()), child.value)
  }
  guard !tracked.isEmpty else { return String(customDumping: model) }
  let fields = tracked.map { label, value in
    let dumped = String(customDumping: value)
      .split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
    return "  \(label): \(dumped)"
  }
  return "\(type(of: model))(\n\(fields.joined(separator: ",\n"))\n)"
}
