import LockSupport
import TaskProviding

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

/// A call's state: outside the generic call type, so that in the debug build tests run in
/// its lock, its continuation and their optionals are concrete types whose metadata is found
/// once, not looked up for each call's generic instance. What it returns is `any Sendable`,
/// cast back to the function's output by the caller's side.
private struct CallState {
  var continuation: CheckedContinuation<any Sendable, any Error>?
  var observedCancellation = false
  var isEnded = false
  var deadline: Deadlines.Token?
}

extension ControlledFunction {
  /// One call: what was asked, and the means to answer it.
  public final class Call: Sendable, CustomStringConvertible {
    /// The position of this call among all calls to the function, from 0.
    public let index: Int
    /// What the caller passed.
    public let input: Input
    private let name: String

    private let state = Locked(CallState())
    /// Whether a cancelled caller gets `CancellationError` at once
    /// (``CancellationResponse/throwCancellationError``).
    private let throwsOnCancel: Bool
    private let answerTimeout: Duration
    /// The test scope the call was made in, which ends it if the test ends first.
    private let scope: ProviderScope?
    private let answers: (@Sendable (Input) -> Output)?
    private let failures: [any Error]

    init(
      name: String, index: Int, input: Input, cancellation: CancellationResponse,
      answerTimeout: Duration, scope: ProviderScope?, answers: (@Sendable (Input) -> Output)?,
      failures: [any Error]
    ) {
      self.name = name
      self.index = index
      self.input = input
      if case .throwCancellationError = cancellation {
        self.throwsOnCancel = true
      } else {
        self.throwsOnCancel = false
      }
      self.answerTimeout = answerTimeout
      self.scope = scope
      self.answers = answers
      self.failures = failures
    }

    /// The ways this call may be completed without the test: its answer, then each allowed
    /// failure.
    private var completions: [ProviderScope.CallCompletion] {
      guard let answers else { return [] }
      let input = input
      let (name, index) = (name, index)
      var completions = [
        ProviderScope.CallCompletion(
          describe: { "answer \(Self.describe(name, index, input))" },
          apply: { [weak self] in self?.answer(answers(input)) })
      ]
      for error in failures {
        completions.append(
          ProviderScope.CallCompletion(
            describe: { "fail \(Self.describe(name, index, input)) with \(error)" },
            apply: { [weak self] in self?.fail(error) })
        )
      }
      return completions
    }

    /// Whether the caller's task was cancelled while this call was open.
    public var observedCancellation: Bool { state.withLock { $0.observedCancellation } }

    /// Whether the caller has been given an outcome: an answer, an error, or cancellation.
    public var isEnded: Bool { state.withLock { $0.isEnded } }

    /// Returns `output` to the caller.
    /// - Returns: `false`, doing nothing, when the call had already ended.
    @discardableResult
    public func answer(_ output: Output) -> Bool {
      resume(with: .success(output as any Sendable))
    }

    /// Throws `error` to the caller.
    /// - Returns: `false`, doing nothing, when the call had already ended.
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
      resume(with: .failure(error))
    }

    /// For example `upload #2: a.txt`.
    public var description: String { Self.describe(name, index, input) }

    private static func describe(_ name: String, _ index: Int, _ input: Input) -> String {
      "\(name) #\(index): \(input)"
    }

    func start(_ continuation: CheckedContinuation<any Sendable, any Error>) {
      let timeout = answerTimeout
      // Registered before it can end, so `closed` always follows `opened`.
      scope?.opened(
        ObjectIdentifier(self),
        ProviderScope.OpenCall(
          describe: { [weak self] in self?.description ?? "a call" },
          end: { [weak self] in self?.resume(with: .failure(CancellationError())) },
          completions: completions, caller: RunningTask.address))
      let cancelNow = state.withLock { state -> Bool in
        state.continuation = continuation
        return state.observedCancellation && throwsOnCancel
      }
      // The timer starts once the continuation is in place: one that fired before would
      // find nothing to resume, and the call would never end.
      let deadline = Deadlines.shared.schedule(after: timeout) { [weak self] in
        guard let self else { return }
        resume(with: .failure(UnansweredCallError(call: description, timeout: timeout)))
      }
      let ended = state.withLock { state -> Bool in
        if !state.isEnded { state.deadline = deadline }
        return state.isEnded
      }
      if ended { Deadlines.shared.cancel(deadline) }
      if cancelNow { resume(with: .failure(CancellationError())) }
    }

    func cancel() {
      let throwNow = throwsOnCancel
      state.withLock { $0.observedCancellation = true }
      if throwNow { resume(with: .failure(CancellationError())) }
    }

    @discardableResult
    private func resume(with outcome: Result<any Sendable, any Error>) -> Bool {
      let ended = state.withLock {
        state -> (CheckedContinuation<any Sendable, any Error>, Deadlines.Token?)? in
        guard !state.isEnded, let continuation = state.continuation else { return nil }
        state.isEnded = true
        state.continuation = nil
        defer { state.deadline = nil }
        return (continuation, state.deadline)
      }
      guard let (continuation, deadline) = ended else { return false }
      if let deadline { Deadlines.shared.cancel(deadline) }
      scope?.closed(ObjectIdentifier(self))
      continuation.resume(with: outcome)
      return true
    }
  }

  /// Thrown to a call's caller when the test has not answered the call within the function's
  /// ``ControlledFunction/answerTimeout``.
  public struct UnansweredCallError: Error, CustomStringConvertible {
    /// The call, as its description reads (`upload #2: a.txt`).
    public let call: String
    /// How long it waited.
    public let timeout: Duration

    public var description: String {
      """
      \(call) was not answered within \(TimeoutScale.describe(timeout)). The test may \
      have stopped before answering it, or may be waiting for something its caller can do \
      only once answered.
      """
    }
  }

  /// Thrown by ``ControlledFunction/nextCall(timeout:fileID:filePath:line:column:isolation:)``
  /// when no call arrives in time.
  public struct NoCallError: Error, CustomStringConvertible {
    /// What the calls are, as the function was named.
    public let name: String
    /// How long the wait lasted.
    public let timeout: Duration
    /// How many calls the function had received in all.
    public let received: Int
    /// Where `nextCall()` was called, if known.
    public var location: TaskSourceLocation? = nil

    /// What was awaited, where, and what may have gone wrong.
    public var description: String {
      let site = location.map { "nextCall() at \($0): " } ?? ""
      return """
        \(site)No \(name) arrived within \(TimeoutScale.describe(timeout)) \
        (\(received) received in all). The code under test may not have made it, or may be \
        waiting on a task that has not run.
        """
    }
  }
}
