import AsyncHTTPClient
import Dependencies
import FactClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

extension NumberFactClient {
  /// numbersapi.com, which serves plain HTTP only.
  public static let defaultBaseURL = URL(string: "http://numbersapi.com")!

  /// The largest answer body the live client reads, in bytes.
  public static let maximumBodySize = 64 * 1024

  /// Asks a numbersapi-compatible server: `GET {baseURL}/{number}/{kind}?json`.
  ///
  /// Requests go through the process's one HTTP client (``FactHTTP``), whose thread starts
  /// with the first request.
  ///
  /// - Parameters:
  ///   - baseURL: The server; a path in it is kept as a prefix.
  ///   - timeout: The limit for the whole request, from connecting to the last byte.
  ///     A server that never answers, or stalls in the middle of its answer, fails with
  ///     ``NumberFactError/timedOut(after:)`` when it runs out.
  /// - Returns: A client whose facts are sanitized, marked `source: .live` and name the host
  ///   they came from.
  public static func live(
    baseURL: URL = defaultBaseURL,
    timeout: Duration = .seconds(5)
  ) -> Self {
    Self { number, kind in
      guard let url = factURL(baseURL: baseURL, number: number, kind: kind) else {
        throw NumberFactError.invalidURL(baseURL.absoluteString)
      }
      let (status, body) = try await FactHTTP.get(url, timeout: timeout, limit: maximumBodySize)
      guard status == 200 else { throw NumberFactError.httpStatus(status) }
      var fact = try decodeFact(body, number: number, kind: kind)
      fact.host = hostName(baseURL)
      return fact
    }
  }

  /// Asks the server, and answers from ``offline`` when the network fails, with the reason:
  /// ``live(baseURL:timeout:)`` behind ``fallingBack(from:host:to:policy:clock:)``, so after
  /// a failure offline facts come at once for a while instead of after another timeout.
  public static func auto(
    baseURL: URL = defaultBaseURL,
    timeout: Duration = .seconds(5),
    policy: FallbackPolicy = FallbackPolicy()
  ) -> Self {
    fallingBack(
      from: live(baseURL: baseURL, timeout: timeout), host: hostName(baseURL), policy: policy)
  }

  /// How facts and messages name the server: its host, and its port when it is not the
  /// scheme's own.
  public static func hostName(_ baseURL: URL) -> String {
    let host = baseURL.host ?? "the fact server"
    guard let port = baseURL.port else { return host }
    let usual = baseURL.scheme?.lowercased() == "https" ? 443 : 80
    return port == usual ? host : "\(host):\(port)"
  }

  /// The request URL for a fact: `{baseURL}/{number}/{kind}?json`.
  public static func factURL(baseURL: URL, number: Int, kind: FactKind) -> URL? {
    guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
      components.host?.isEmpty == false
    else { return nil }
    var path = components.path
    while path.hasSuffix("/") { path.removeLast() }
    components.path = "\(path)/\(number)/\(kind.rawValue)"
    components.percentEncodedQuery = "json"
    components.fragment = nil
    return components.url
  }

  /// Reads a numbersapi JSON answer. Only `text` and `found` are used: `number` comes back
  /// as an integer, a string or a float depending on the number, and we know which number
  /// we asked for.
  static func decodeFact(_ body: Data, number: Int, kind: FactKind) throws -> NumberFact {
    struct Answer: Decodable {
      var text: String
      var found: Bool

      enum CodingKeys: CodingKey { case text, found }

      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        found = (try? container.decode(Bool.self, forKey: .found)) ?? true
      }
    }
    guard !body.isEmpty else { throw NumberFactError.malformedResponse(reason: "empty body") }
    // Invalid UTF-8 becomes U+FFFD instead of failing the whole answer.
    let repaired = Data(String(decoding: body, as: UTF8.self).utf8)
    let answer: Answer
    do {
      answer = try JSONDecoder().decode(Answer.self, from: repaired)
    } catch {
      throw NumberFactError.malformedResponse(reason: "not a JSON fact")
    }
    let text = FactText.sanitize(answer.text)
    guard !text.isEmpty else { throw NumberFactError.malformedResponse(reason: "empty text") }
    return NumberFact(number: number, kind: kind, text: text, found: answer.found, source: .live)
  }
}

extension NumberFactClient: DependencyKey {
  /// The app's client: ``auto(baseURL:timeout:policy:)`` against numbersapi.com.
  public static let liveValue = Self.auto()
}

/// The process's one HTTP client for facts.
///
/// Created with the first request, on an event loop of one thread, so a process that never
/// asks the network starts no thread for it. Call ``shutDown()`` before the process exits.
public enum FactHTTP {
  private struct Clients {
    var client: HTTPClient?
    var group: MultiThreadedEventLoopGroup?
    var isShutDown = false
  }

  private static let clients = Mutex(Clients())

  /// Whether the client exists: a request has been made and it was not shut down since.
  public static var isRunning: Bool { clients.withLock { $0.client != nil } }

  static func client() throws -> HTTPClient {
    try clients.withLock { clients in
      if let client = clients.client { return client }
      guard !clients.isShutDown else { throw HTTPClientError.alreadyShutdown }
      let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
      var configuration = HTTPClient.Configuration()
      configuration.redirectConfiguration = .follow(max: 3, allowCycles: false)
      configuration.decompression = .disabled
      // A refused connection fails now, not after retrying until the deadline: `auto` then
      // falls back at once.
      configuration.connectionPool.retryConnectionEstablishment = false
      let client = HTTPClient(eventLoopGroup: group, configuration: configuration)
      clients.client = client
      clients.group = group
      return client
    }
  }

  /// Closes every connection and stops the client's thread; later requests fail. Does
  /// nothing when no request was made.
  public static func shutDown() async {
    let (client, group) = clients.withLock { clients in
      clients.isShutDown = true
      defer { (clients.client, clients.group) = (nil, nil) }
      return (clients.client, clients.group)
    }
    try? await client?.shutdown()
    try? await group?.shutdownGracefully()
  }

  /// One GET with a deadline for the whole exchange and a cap on the body. Returns the
  /// status, and the body only when the status is 200: an error page is of no use.
  static func get(_ url: URL, timeout: Duration, limit: Int) async throws -> (Int, Data) {
    let host = NumberFactClient.hostName(url)
    let deadline = NIODeadline.now() + TimeAmount(timeout)
    var request = HTTPClientRequest(url: url.absoluteString)
    request.headers.add(name: "Accept", value: "application/json")
    request.headers.add(name: "User-Agent", value: "numberfact")
    let response: HTTPClientResponse
    do {
      // The client's deadline covers connecting and the response head.
      response = try await client().execute(request, deadline: deadline)
    } catch {
      throw translate(error, responded: false, host: host, timeout: timeout)
    }
    guard response.status == .ok else { return (Int(response.status.code), Data()) }
    do {
      // The client's deadline ends with the head, so the body keeps the same one here.
      let body = try await withDeadline(deadline) {
        try await response.body.collect(upTo: limit)
      }
      return (200, Data(body.readableBytesView))
    } catch {
      throw translate(error, responded: true, host: host, timeout: timeout)
    }
  }

  /// Runs `operation`, cancelling it at `deadline`.
  private static func withDeadline<T: Sendable>(
    _ deadline: NIODeadline, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        let left = deadline - NIODeadline.now()
        try await Task.sleep(for: .nanoseconds(max(left.nanoseconds, 0)))
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let value = first else {
        throw HTTPClientError.deadlineExceeded
      }
      return value
    }
  }

  /// Maps what the HTTP stack threw to what a person should read. Once the response has
  /// begun, the host was reached, so any later transport failure is a lost connection.
  static func translate(
    _ error: any Error, responded: Bool, host: String, timeout: Duration
  ) -> any Error {
    if error is CancellationError || Task.isCancelled { return CancellationError() }
    if error is NIOTooManyBytesError {
      return NumberFactError.responseTooLarge(limit: NumberFactClient.maximumBodySize)
    }
    if let error = error as? HTTPClientError {
      switch error {
      case .cancelled: return CancellationError()
      case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout:
        return NumberFactError.timedOut(after: timeout)
      case .tlsHandshakeTimeout:
        return NumberFactError.tlsFailed(host: host)
      case .invalidURL, .emptyHost, .emptyScheme:
        return NumberFactError.invalidURL(host)
      default:
        return responded ? NumberFactError.connectionLost : NumberFactError.unreachable(host: host)
      }
    }
    if responded { return NumberFactError.connectionLost }
    if error is NIOSSLError || error is BoringSSLError {
      return NumberFactError.tlsFailed(host: host)
    }
    if let error = error as? ChannelError, case .connectTimeout = error {
      return NumberFactError.timedOut(after: timeout)
    }
    if let error = error as? NIOConnectionError {
      let codes = error.connectionErrors.compactMap { ($0.error as? IOError)?.errnoCode }
      if !codes.isEmpty, codes.allSatisfy({ $0 == ENETUNREACH }) {
        return NumberFactError.noNetwork
      }
    }
    if let error = error as? IOError, error.errnoCode == ENETUNREACH {
      return NumberFactError.noNetwork
    }
    return NumberFactError.unreachable(host: host)
  }
}

extension TimeAmount {
  /// `duration`, saturated to what a `TimeAmount` holds.
  fileprivate init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    self = overflow ? .nanoseconds(.max) : .nanoseconds(nanoseconds &+ attoseconds / 1_000_000_000)
  }
}
