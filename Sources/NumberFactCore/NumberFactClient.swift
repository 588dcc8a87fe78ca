import Dependencies
import Foundation
import IssueReporting

/// Fetches facts about numbers: a witness struct, so each implementation is a value.
///
/// - ``live(baseURL:timeout:)`` asks numbersapi.com over HTTP.
/// - ``offline`` computes facts locally, for every `Int`, with no network.
/// - ``auto(baseURL:timeout:)`` asks the server and falls back to offline facts when the
///   network fails.
///
/// Use it through `@Dependency(\.numberFact)`; tests replace it with a controlled client.
public struct NumberFactClient: Sendable {
  /// Returns a fact of the given kind about `number`.
  ///
  /// Throws ``NumberFactError`` for failures a person should read, and `CancellationError`
  /// when the calling task is cancelled.
  public var fact: @Sendable (_ number: Int, _ kind: FactKind) async throws -> NumberFact

  /// Creates a client from its one operation.
  public init(
    fact: @escaping @Sendable (_ number: Int, _ kind: FactKind) async throws -> NumberFact
  ) {
    self.fact = fact
  }
}

extension NumberFactClient {
  /// Facts computed locally: deterministic, instant, for every `Int` and kind.
  public static let offline = Self { number, kind in
    OfflineFacts.fact(number, kind)
  }

  /// Asks the server, and answers from ``offline`` (marked `source: .offline`) when the
  /// network fails: unreachable host, timeout, lost connection.
  ///
  /// HTTP errors and malformed answers are thrown, not papered over: the network worked and
  /// the server said something wrong, which a person should see.
  public static func auto(
    baseURL: URL = defaultBaseURL,
    timeout: Duration = .seconds(5)
  ) -> Self {
    let live = live(baseURL: baseURL, timeout: timeout)
    return Self { number, kind in
      do {
        return try await live.fact(number, kind)
      } catch let error as NumberFactError where error.isTransportFailure {
        try Task.checkCancellation()
        return try await offline.fact(number, kind)
      }
    }
  }
}

extension NumberFactClient: DependencyKey {
  /// The app's client: ``auto(baseURL:timeout:)`` against numbersapi.com.
  public static let liveValue = Self.auto()

  /// Previews get instant, deterministic offline facts.
  public static let previewValue = Self.offline

  /// Fails the test that reaches it: a test must say which facts it expects.
  public static let testValue = Self { number, kind in
    reportIssue(
      """
      Unimplemented: @Dependency(\\.numberFact).fact(\(number), .\(kind)) was called. \
      Override it in the test, for example with a controlled client or .offline.
      """)
    throw UnimplementedFactError()
  }
}

/// Thrown by the unimplemented test client after it has reported the issue.
public struct UnimplementedFactError: Error, CustomStringConvertible {
  /// Creates the error.
  public init() {}

  public var description: String { "The fact client is not implemented in this test." }
}

extension DependencyValues {
  /// The client that fetches facts about numbers.
  public var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}
