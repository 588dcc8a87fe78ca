import NumberFactCore

// Repeated on purpose (docs/architecture.md): every wait spells out its timeout, call-site and
// isolation parameters. The generic test tools (`waitUntil`, `ControlledFunction`, the providers)
// live in the toolkit; re-exported so code that imported them from here still compiles.
@_exported import TaskProvidingTesting

/// A fact client the test drives: every call becomes a ``Request`` the test awaits, then
/// answers, fails, or leaves hanging. A thin layer over ``ControlledFunction``.
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
/// A request records whether its caller's task was cancelled (`observedCancellation`).
/// Under the default ``CancellationResponse/throwCancellationError`` it then throws
/// `CancellationError` at once, as a well-behaved client does; under
/// ``CancellationResponse/ignore`` it keeps waiting for the test's answer, like a client that
/// ignores cancellation, so a test can deliver a late answer to a superseded request.
package final class ControlledNumberFactClient: Sendable {
  /// What a request does when its caller's task is cancelled.
  package typealias CancellationResponse = ControlledFunction<FactQuery, NumberFact>
    .CancellationResponse
  /// One call to the client: what was asked, and the means to answer it.
  package typealias Request = ControlledFunction<FactQuery, NumberFact>.Call
  /// Thrown by ``nextRequest(timeout:fileID:filePath:line:column:isolation:)`` when no request
  /// arrives in time.
  package typealias NoRequestError = ControlledFunction<FactQuery, NumberFact>.NoCallError

  /// The controlled function behind ``client``'s `fact`.
  package let fact: ControlledFunction<FactQuery, NumberFact>

  /// Creates a client whose requests wait for the test.
  ///
  /// - Parameters:
  ///   - cancellation: What a request does when its caller is cancelled.
  ///   - answerTimeout: Bounds a failure only: a request the test has not answered by then
  ///     fails, so the model (and a test awaiting it) cannot wait forever.
  package init(
    cancellation: CancellationResponse = .throwCancellationError,
    answerTimeout: Duration = AppFailureBound.standard
  ) {
    fact = ControlledFunction(
      "fact request", cancellation: cancellation, answerTimeout: answerTimeout)
  }

  /// Creates a client that an exploration answers on its own, with `answers(query)` or one of
  /// `failures`, in whichever order each schedule says.
  ///
  /// - Parameters:
  ///   - cancellation: What a request does when its caller is cancelled.
  ///   - answers: The fact to answer a request with.
  ///   - failures: Errors an exploration may throw instead of answering.
  package init(
    cancellation: CancellationResponse = .throwCancellationError,
    answers: @escaping @Sendable (FactQuery) -> NumberFact,
    failures: [any Error] = []
  ) {
    fact = ControlledFunction(
      "fact request", cancellation: cancellation, answers: answers, failures: failures)
  }

  /// The client to install as `@Dependency(\.numberFact)`.
  package var client: NumberFactClient {
    let fact = fact.function
    return NumberFactClient { number, kind in
      try await fact(FactQuery(number: number, kind: kind))
    }
  }

  /// How many calls the client has received.
  package var requestCount: Int { fact.callCount }

  /// Returns the next request, in call order, waiting for it if it has not arrived yet.
  ///
  /// When it returns, the caller is suspended inside the client, waiting for the answer.
  ///
  /// - `timeout`: Bounds a failure only; a request that arrives returns at once.
  /// - Throws: ``NoRequestError`` naming this call's line when no request arrives within
  ///   `timeout`.
  package func nextRequest(
    timeout: Duration = AppFailureBound.standard,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> Request {
    try await fact.nextCall(
      timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// What a fact request asked for.
package struct FactQuery: Sendable, Hashable, CustomStringConvertible {
  /// The number the caller asked about.
  package let number: Int
  /// The kind of fact the caller asked for.
  package let kind: FactKind

  /// Creates a query.
  package init(number: Int, kind: FactKind) {
    self.number = number
    self.kind = kind
  }

  /// For example `fact(3, .trivia)`.
  package var description: String { "fact(\(number), .\(kind.rawValue))" }
}

extension ControlledFunction.Call where Input == FactQuery, Output == NumberFact {
  /// The number the caller asked about.
  package var number: Int { input.number }
  /// The kind of fact the caller asked for.
  package var kind: FactKind { input.kind }

  /// Answers with a found fact of `text` about the number and kind asked for.
  /// - Returns: `false`, doing nothing, when the request had already ended.
  @discardableResult
  package func answer(_ text: String, source: FactSource = .live) -> Bool {
    answer(NumberFact(number: number, kind: kind, text: text, source: source))
  }
}
