import IssueReporting
import NumberFactCore
import Synchronization

/// A fact client the test drives: every call becomes a ``Request`` the test awaits, then
/// answers, fails, or leaves hanging.
///
/// ```swift
/// let facts = ControlledNumberFactClient()
/// let model = withDependencies {
///   $0.numberFact = facts.client
///   $0.taskProvider = RecordingTaskProvider()
/// } operation: { NumberFactFeature() }
///
/// async let tap: Void = model.getFactButtonTapped()
/// let request = try await facts.nextRequest()   // the model is now waiting for its answer
/// #expect(model.isLoading)
/// request.answer("0 is the additive identity.")
/// await tap
/// #expect(model.fact?.text == "0 is the additive identity.")
/// ```
///
/// A request records whether its caller's task was cancelled (``Request/observedCancellation``).
/// Under the default ``CancellationResponse/throwCancellationError`` it then throws
/// `CancellationError` at once, as a well-behaved client does; under
/// ``CancellationResponse/ignore`` it keeps waiting for the test's answer, like a client that
/// ignores cancellation, so a test can deliver a late answer to a superseded request.
public final class ControlledNumberFactClient: Sendable {
  /// What a request does when its caller's task is cancelled.
  public enum CancellationResponse: Sendable {
    /// Throw `CancellationError` right away.
    case throwCancellationError
    /// Record the cancellation and keep waiting for the test's answer.
    case ignore
  }

  private let continuation: AsyncStream<Request>.Continuation
  private let inbox: Inbox
  private let count = Mutex(0)
  private let cancellationResponse: CancellationResponse

  /// Creates a client whose requests wait for the test.
  ///
  /// - Parameter cancellation: What a request does when its caller is cancelled.
  public init(cancellation: CancellationResponse = .throwCancellationError) {
    let (requests, continuation) = AsyncStream.makeStream(of: Request.self)
    self.continuation = continuation
    self.inbox = Inbox(requests)
    self.cancellationResponse = cancellation
  }

  /// The client to install as `@Dependency(\.numberFact)`.
  public var client: NumberFactClient {
    NumberFactClient { number, kind in
      try await self.call(number, kind)
    }
  }

  /// How many calls the client has received.
  public var requestCount: Int { count.withLock { $0 } }

  /// Returns the next request, in call order, waiting for it if it has not arrived yet.
  ///
  /// When it returns, the caller is suspended inside the client, waiting for the answer.
  /// Call it from one task at a time.
  ///
  /// - Parameter timeout: Bounds a failure only; a request that arrives returns at once.
  /// - Throws: ``NoRequestError`` when no request arrives within `timeout`. The client
  ///   delivers no further requests after that.
  public func nextRequest(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async throws -> Request {
    let inbox = inbox
    let request = await withTaskGroup(of: Request?.self) { group in
      group.addTask { await inbox.next() }
      group.addTask {
        try? await Task.sleep(for: timeout)  // failure bound
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    guard let request else {
      try Task.checkCancellation()
      throw NoRequestError(timeout: timeout, received: requestCount)
    }
    return request
  }

  private func call(_ number: Int, _ kind: FactKind) async throws -> NumberFact {
    let index = count.withLock { count in
      defer { count += 1 }
      return count
    }
    let request = Request(
      index: index, number: number, kind: kind, cancellation: cancellationResponse)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        request.start(continuation)
        // Announced only now, so a test that receives it knows the caller is waiting.
        self.continuation.yield(request)
      }
    } onCancel: {
      request.cancel()
    }
  }
}

extension ControlledNumberFactClient {
  /// One call to the client: what was asked, and the means to answer it.
  public final class Request: Sendable, CustomStringConvertible {
    /// The position of this call among all calls to the client, from 0.
    public let index: Int
    /// The number the caller asked about.
    public let number: Int
    /// The kind of fact the caller asked for.
    public let kind: FactKind

    private struct State {
      var continuation: CheckedContinuation<NumberFact, any Error>?
      var observedCancellation = false
      var isEnded = false
    }

    private let state = Mutex(State())
    private let cancellationResponse: CancellationResponse

    init(index: Int, number: Int, kind: FactKind, cancellation: CancellationResponse) {
      self.index = index
      self.number = number
      self.kind = kind
      self.cancellationResponse = cancellation
    }

    /// Whether the caller's task was cancelled while this request was open.
    public var observedCancellation: Bool { state.withLock { $0.observedCancellation } }

    /// Whether the caller has been given an outcome: an answer, an error, or cancellation.
    public var isEnded: Bool { state.withLock { $0.isEnded } }

    /// Answers with `fact`.
    /// - Returns: `false`, doing nothing, when the request had already ended.
    @discardableResult
    public func answer(_ fact: NumberFact) -> Bool {
      resume(with: .success(fact))
    }

    /// Answers with a found, live fact of `text` about the number and kind asked for.
    /// - Returns: `false`, doing nothing, when the request had already ended.
    @discardableResult
    public func answer(_ text: String, source: FactSource = .live) -> Bool {
      answer(NumberFact(number: number, kind: kind, text: text, source: source))
    }

    /// Fails the call with `error`.
    /// - Returns: `false`, doing nothing, when the request had already ended.
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
      resume(with: .failure(error))
    }

    public var description: String {
      "request #\(index): fact(\(number), .\(kind))"
    }

    func start(_ continuation: CheckedContinuation<NumberFact, any Error>) {
      let cancelNow = state.withLock { state -> Bool in
        state.continuation = continuation
        return state.observedCancellation && cancellationResponse == .throwCancellationError
      }
      if cancelNow { resume(with: .failure(CancellationError())) }
    }

    func cancel() {
      let throwNow = state.withLock { state -> Bool in
        state.observedCancellation = true
        return cancellationResponse == .throwCancellationError
      }
      if throwNow { resume(with: .failure(CancellationError())) }
    }

    @discardableResult
    private func resume(with outcome: Result<NumberFact, any Error>) -> Bool {
      let continuation = state.withLock { state -> CheckedContinuation<NumberFact, any Error>? in
        guard !state.isEnded, let continuation = state.continuation else { return nil }
        state.isEnded = true
        state.continuation = nil
        return continuation
      }
      continuation?.resume(with: outcome)
      return continuation != nil
    }
  }

  /// Thrown by ``ControlledNumberFactClient/nextRequest(timeout:fileID:filePath:line:column:)``
  /// when no request arrives in time.
  public struct NoRequestError: Error, CustomStringConvertible {
    /// How long the wait lasted.
    public let timeout: Duration
    /// How many requests the client had received in all.
    public let received: Int

    public var description: String {
      """
      No fact request arrived within \(timeout) (\(received) received in all). The code \
      under test may not have asked, or may be waiting on a task that has not run.
      """
    }
  }
}

/// The single consumer of the request stream. An actor, because the stream's iterator must
/// not be shared by concurrent callers.
private actor Inbox {
  private var iterator: AsyncStream<ControlledNumberFactClient.Request>.Iterator
  private var isWaiting = false

  init(_ requests: AsyncStream<ControlledNumberFactClient.Request>) {
    iterator = requests.makeAsyncIterator()
  }

  func next() async -> ControlledNumberFactClient.Request? {
    guard !isWaiting else {
      reportIssue("nextRequest() was called while another call was still waiting.")
      return nil
    }
    isWaiting = true
    defer { isWaiting = false }
    // The iterator is a reference to the stream's storage, so a copy advances it too.
    var iterator = self.iterator
    return await iterator.next(isolation: self)
  }
}
