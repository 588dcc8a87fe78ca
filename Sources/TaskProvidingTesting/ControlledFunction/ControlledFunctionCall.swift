import LockSupport
import TaskProviding

/// A call's state: outside the generic call type, so one concrete type holds every call's
/// lock and continuation. What it returns is `any Sendable`, cast back to the function's
/// output by the caller's side.
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
}
