import LockSupport
import TaskProviding

// Repeated on purpose (docs/architecture.md): every wait spells out its timeout, call-site and
// isolation parameters.

/// A stand-in for any async dependency that the test drives: each call becomes a ``Call``
/// the test awaits with ``nextCall(timeout:fileID:filePath:line:column:isolation:)``, then
/// answers, fails, or leaves waiting.
///
/// ```swift
/// let search = ControlledFunction<String, [Book]>()
/// let model = SearchModel(search: search.function)
///
/// async let typed: Void = model.queryChanged("swift")
/// let call = try await search.nextCall()   // the model is now waiting for the answer
/// #expect(call.input == "swift")
/// #expect(model.isSearching)
/// call.answer([.init(title: "The Swift Programming Language")])
/// await typed
/// #expect(model.results.count == 1)
/// ```
///
/// A call records whether its caller's task was cancelled (``Call/observedCancellation``).
/// Under ``CancellationResponse/throwCancellationError`` (the default) it then throws
/// `CancellationError` at once, as a well-behaved dependency does; under
/// ``CancellationResponse/ignore`` it keeps waiting for the test's answer, like a dependency
/// that ignores cancellation, so a test can deliver a late answer to a superseded call.
///
/// Waiting for a call keeps the test's isolation and starts no task: a call made on the
/// main actor reaches a test waiting on the main actor without a thread switch.
public final class ControlledFunction<Input: Sendable, Output: Sendable>: Sendable {
  /// What a call does when its caller's task is cancelled.
  public enum CancellationResponse: Sendable {
    /// Throw `CancellationError` right away.
    case throwCancellationError
    /// Record the cancellation and keep waiting for the test's answer.
    case ignore
  }

  private enum Taken {
    case call(Call)
    case waiter(Waiter)
  }

  private struct State {
    var count = 0
    /// Calls no test has taken yet, oldest first.
    var undelivered: [Call] = []
    var undeliveredHead = 0
    /// Tests waiting for a call, oldest first.
    var waiters: [Waiter] = []

    mutating func takeUndelivered() -> Call? {
      guard undeliveredHead < undelivered.count else { return nil }
      defer {
        undeliveredHead += 1
        if undeliveredHead == undelivered.count {
          undelivered.removeAll(keepingCapacity: true)
          undeliveredHead = 0
        }
      }
      return undelivered[undeliveredHead]
    }
  }

  /// What the calls are, in messages: "fact request", "upload".
  public let name: String
  /// How long a call waits for the test's answer before it fails with
  /// ``UnansweredCallError``.
  public let answerTimeout: Duration
  private let cancellationResponse: CancellationResponse
  private let state = Locked(State())
  /// How an exploration answers a call, if it may.
  private let answers: (@Sendable (Input) -> Output)?
  /// The failures an exploration may give a call instead of an answer.
  private let failures: [any Error]

  /// Creates a function whose calls wait for the test.
  ///
  /// - Parameters:
  ///   - name: What the calls are, for messages ("No upload arrived within 5 seconds").
  ///   - cancellation: What a call does when its caller is cancelled.
  ///   - answerTimeout: Bounds a failure only: a call the test has not answered by then
  ///     fails with ``UnansweredCallError``, whatever `cancellation` says, so code awaiting
  ///     it (and a test awaiting that code) cannot wait forever.
  public init(
    _ name: String = "call",
    cancellation: CancellationResponse = .throwCancellationError,
    answerTimeout: Duration = .seconds(5)
  ) {
    self.name = name
    self.cancellationResponse = cancellation
    self.answerTimeout = answerTimeout
    self.answers = nil
    self.failures = []
  }

  /// Creates a function that an exploration
  /// (``explore(_:replay:outsideWait:fileID:filePath:line:column:_:)-9mvqm``) completes on its own: each open
  /// call is a choice the strategy makes, answered with `answers(input)` or failed with one
  /// of `failures`, in whichever order the schedule says.
  ///
  /// Outside an exploration it behaves as the other initializer's function: the test takes
  /// the calls with `nextCall()`.
  ///
  /// - Parameters:
  ///   - name: What the calls are, for messages and schedules ("fact request").
  ///   - cancellation: What a call does when its caller is cancelled.
  ///   - answerTimeout: Bounds a failure only, as for the other initializer.
  ///   - answers: The answer to a call with a given input.
  ///   - failures: Errors an exploration may throw to a caller instead of answering.
  public init(
    _ name: String = "call",
    cancellation: CancellationResponse = .throwCancellationError,
    answerTimeout: Duration = .seconds(5),
    answers: @escaping @Sendable (Input) -> Output,
    failures: [any Error] = []
  ) {
    self.name = name
    self.cancellationResponse = cancellation
    self.answerTimeout = answerTimeout
    self.answers = answers
    self.failures = failures
  }

  /// The function to inject in place of the real dependency.
  ///
  /// It runs on its caller's actor. Stored as a `nonisolated(nonsending)` function type (the
  /// default for nonisolated async function types under `NonisolatedNonsendingByDefault`), a
  /// call made on the main actor is made there, with no hop to the pool and back. Stored as
  /// an ordinary `@Sendable` async function type, it converts, and runs on the pool as any
  /// such function does.
  public var function: nonisolated(nonsending) @Sendable (Input) async throws -> Output {
    { input in try await self.call(input) }
  }

  /// How many calls the function has received.
  public var callCount: Int { state.withLock { $0.count } }

  /// Returns the next call, in call order, waiting for it if it has not been made yet.
  ///
  /// When it returns, the caller is suspended inside the function, waiting for the answer.
  /// Several tasks may wait at once; each call goes to one of them, oldest waiter first.
  ///
  /// The source-location parameters default to the caller's: see `TaskSourceLocation`.
  ///
  /// - `timeout`: Bounds a failure only; a call that is made returns at once.
  /// - `isolation`: The caller's isolation, kept across the wait.
  /// - Throws: ``NoCallError`` naming this call's line when no call arrives within
  ///   `timeout`; `CancellationError` if the waiting task is cancelled.
  ///   A call made after a wait gave up is kept for the next wait.
  public func nextCall(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Call {
    let taken = state.withLock { state -> Taken in
      if let call = state.takeUndelivered() { return .call(call) }
      let waiter = Waiter()
      state.waiters.append(waiter)
      return .waiter(waiter)
    }
    let waiter: Waiter
    switch taken {
    case .call(let call): return call
    case .waiter(let registered): waiter = registered
    }
    let outcome = await waiter.wait(timeout: timeout)
    // Only `deliver` resumes these waiters with a value, and always with a call.
    if case .value(let call) = outcome { return call as! Call }
    state.withLock { $0.waiters.removeAll { $0 === waiter } }
    try Task.checkCancellation()
    throw NoCallError(
      name: name, timeout: timeout, received: callCount,
      location: TaskSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs on `isolation`, the caller's, which the closures below name to stay on it: a
  /// closure that does not is nonisolated, and unoptimized code hops to the pool to run it, so
  /// a call made on an actor would suspend on the pool and its answer would wake a pool thread
  /// only to hop back.
  private func call(
    _ input: Input, isolation: isolated (any Actor)? = #isolation
  ) async throws -> Output {
    let index = state.withLock { state in
      defer { state.count += 1 }
      return state.count
    }
    let call = Call(
      name: name, index: index, input: input, cancellation: cancellationResponse,
      answerTimeout: answerTimeout, scope: ProviderScope.current, answers: answers,
      failures: failures)
    let answer = try await withTaskCancellationHandler(
      operation: {
        _ = isolation
        return try await withCheckedThrowingContinuation(isolation: isolation) {
          (continuation: CheckedContinuation<any Sendable, any Error>) in
          call.start(continuation)
          // Announced only now, so a test that receives it knows the caller is waiting.
          deliver(call)
        }
      },
      onCancel: { call.cancel() },
      isolation: isolation)
    // Only `answer(_:)` resumes the call with a value, and always with an `Output`.
    return answer as! Output
  }

  /// Hands `call` to the oldest waiter still waiting, or keeps it for the next one.
  private func deliver(_ call: Call) {
    while true {
      let waiter = state.withLock { state -> Waiter? in
        guard !state.waiters.isEmpty else {
          state.undelivered.append(call)
          return nil
        }
        return state.waiters.removeFirst()
      }
      // A waiter that timed out a moment ago declines; the call goes to the next one.
      guard let waiter, !waiter.resume(.value(call)) else { return }
    }
  }
}
