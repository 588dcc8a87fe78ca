import AsyncHTTPClient
import Dependencies
import FactClient
import Foundation
import LockSupport
import NIOCore
import NIOPosix
import NIOSSL

extension NumberFactClient {
  /// numbersapi.com, which serves plain HTTP only.
  package static let defaultBaseURL = URL(string: "http://numbersapi.com")!

  /// The largest answer body the live client reads, in bytes.
  package static let maximumBodySize = 64 * 1024

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
  package static func live(
    baseURL: URL = defaultBaseURL,
    timeout: Duration = .seconds(5)
  ) -> Self {
    let host = hostName(baseURL)
    /// One GET of `path` (after the base URL's own), decoded by `decode`.
    @Sendable func get<T>(
      _ path: String, query: [String] = [], _ decode: (Data) throws -> T
    ) async throws -> T {
      guard let url = requestURL(baseURL: baseURL, path: path, query: query) else {
        throw NumberFactError.invalidURL(baseURL.absoluteString)
      }
      let (status, body) = try await FactHTTP.get(url, timeout: timeout, limit: maximumBodySize)
      guard status == 200 else { throw NumberFactError.httpStatus(status) }
      return try decode(body)
    }
    @Sendable func one(_ number: Int, _ kind: FactKind) async throws -> NumberFact {
      try await get(factPath(number, kind)) { body in
        var fact = try FactResponse.fact(body, number: number, kind: kind)
        fact.host = host
        return fact
      }
    }
    return Self(
      fact: one,
      random: { kind, range in
        var query: [String] = []
        if let range { query = ["min=\(range.lowerBound)", "max=\(range.upperBound)"] }
        return try await get("random/\(kind.rawValue)", query: query) { body in
          guard let number = FactResponse.number(body) else {
            throw NumberFactError.malformedResponse(reason: "no number in a random fact")
          }
          var fact = try FactResponse.fact(body, number: number, kind: kind)
          fact.host = host
          return fact
        }
      },
      facts: { numbers, kind in
        // Dates have no batch form on the wire; a batch of one is answered as a single fact.
        guard kind != .date, numbers.count > 1 else {
          var facts: [NumberFact] = []
          for number in numbers { facts.append(try await one(number, kind)) }
          return facts
        }
        var answers: [Int: NumberFact] = [:]
        for chunk in batches(of: Array(Set(numbers)).sorted()) {
          if chunk.count == 1 {
            answers[chunk[0]] = try await one(chunk[0], kind)
            continue
          }
          let decoded = try await get("\(batchList(chunk))/\(kind.rawValue)") { body in
            try FactResponse.batch(body, numbers: chunk, kind: kind)
          }
          for var fact in decoded {
            fact.host = host
            answers[fact.number] = fact
          }
        }
        return try numbers.map { number in
          guard let fact = answers[number] else {
            throw NumberFactError.malformedResponse(reason: "no fact about \(number) in the batch")
          }
          return fact
        }
      })
  }

  /// The most numbers one batch request may name: the server's limit.
  package static let maximumBatchSize = 100

  /// `numbers` (sorted, distinct) in requests of at most ``maximumBatchSize``.
  static func batches(of numbers: [Int]) -> [[Int]] {
    stride(from: 0, to: numbers.count, by: maximumBatchSize).map {
      Array(numbers[$0..<min($0 + maximumBatchSize, numbers.count)])
    }
  }

  /// "1..5,10,12": runs of consecutive numbers as ranges. `numbers` sorted and distinct.
  static func batchList(_ numbers: [Int]) -> String {
    var parts: [String] = []
    var index = 0
    while index < numbers.count {
      var end = index
      while end + 1 < numbers.count, numbers[end] != .max, numbers[end + 1] == numbers[end] + 1 {
        end += 1
      }
      parts.append(
        end - index >= 2 ? "\(numbers[index])..\(numbers[end])" : "\(numbers[index])")
      if end - index == 1 { parts.append("\(numbers[end])") }
      index = end + 1
    }
    return parts.joined(separator: ",")
  }

  /// The path of one fact: `{number}/{kind}`, and `{month}/{day}/date` for a day of the year.
  static func factPath(_ number: Int, _ kind: FactKind) -> String {
    if kind == .date, let date = FactDate(dayOfYear: number) {
      return "\(date.month)/\(date.day)/date"
    }
    return "\(number)/\(kind.rawValue)"
  }

  /// `{baseURL}/{path}?json` and the extra query items, or `nil` without a host.
  static func requestURL(baseURL: URL, path: String, query: [String] = []) -> URL? {
    guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
      components.host?.isEmpty == false
    else { return nil }
    var prefix = components.path
    while prefix.hasSuffix("/") { prefix.removeLast() }
    components.path = "\(prefix)/\(path)"
    components.percentEncodedQuery = (["json"] + query).joined(separator: "&")
    components.fragment = nil
    return components.url
  }

  /// Asks the server, and answers from ``offline`` when the network fails, with the reason:
  /// ``live(baseURL:timeout:)`` behind ``fallingBack(from:host:to:policy:clock:)``, so after
  /// a failure offline facts come at once for a while instead of after another timeout.
  ///
  /// - Parameter offline: What answers while the server cannot: by default facts computed on
  ///   this machine; the app passes facts seen before first.
  package static func auto(
    baseURL: URL = defaultBaseURL,
    timeout: Duration = .seconds(5),
    policy: FallbackPolicy = FallbackPolicy(),
    offline: Self = .offline
  ) -> Self {
    fallingBack(
      from: live(baseURL: baseURL, timeout: timeout), host: hostName(baseURL), to: offline,
      policy: policy)
  }

  /// How facts and messages name the server: its host, and its port when it is not the
  /// scheme's own.
  package static func hostName(_ baseURL: URL) -> String {
    let host = baseURL.host ?? "the fact server"
    guard let port = baseURL.port else { return host }
    let usual = baseURL.scheme?.lowercased() == "https" ? 443 : 80
    return port == usual ? host : "\(host):\(port)"
  }

  /// The request URL for a fact: `{baseURL}/{number}/{kind}?json`, and
  /// `{baseURL}/{month}/{day}/date?json` for a day of the year.
  package static func factURL(baseURL: URL, number: Int, kind: FactKind) -> URL? {
    requestURL(baseURL: baseURL, path: factPath(number, kind))
  }
}

extension NumberFactClient: DependencyKey {
  /// The app's client: ``auto(baseURL:timeout:policy:)`` against numbersapi.com.
  package static let liveValue = Self.auto()
}

/// The process's one HTTP client for facts.
///
/// Created with the first request, on an event loop of one thread, so a process that never
/// asks the network starts no thread for it. Call ``shutDown()`` before the process exits.
package enum FactHTTP {
  private struct Clients {
    var client: HTTPClient?
    var isShutDown = false
  }

  private static let clients = Locked(Clients())

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
      return client
    }
  }

  /// Closes every connection and shuts the client down; later requests fail. Does nothing
  /// when no request was made.
  ///
  /// The event loop's thread is left to end with the process: a connection the client has
  /// just closed can still schedule its last callbacks on the loop, and a loop shut down
  /// under them prints an error.
  package static func shutDown() async {
    let client = clients.withLock { clients in
      clients.isShutDown = true
      defer { clients.client = nil }
      return clients.client
    }
    try? await client?.shutdown()
  }

  /// Runs `body`, then shuts the client down (``shutDown()``), whether `body` returned or
  /// threw: what a command that may ask the network wraps its work in.
  package static func whileRunning<T>(_ body: () async throws -> T) async throws -> T {
    do {
      let result = try await body()
      await shutDown()
      return result
    } catch {
      await shutDown()
      throw error
    }
  }

  /// One GET with a deadline for the whole exchange and a cap on the body. Returns the
  /// status, and the body only when the status is 200: an error page is of no use.
  package static func get(
    _ url: URL, timeout: Duration, limit: Int
  ) async throws -> (Int, Data) {
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
      throw translate(error, responded: false, host: host, timeout: timeout, limit: limit)
    }
    guard response.status == .ok else { return (Int(response.status.code), Data()) }
    do {
      // The client's deadline ends with the head, so the body keeps the same one here.
      let body = try await withDeadline(deadline) {
        try await response.body.collect(upTo: limit)
      }
      return (200, Data(body.readableBytesView))
    } catch {
      throw translate(error, responded: true, host: host, timeout: timeout, limit: limit)
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
  /// A body past `limit` bytes is too large, as the limit this request was given says.
  static func translate(
    _ error: any Error, responded: Bool, host: String, timeout: Duration, limit: Int
  ) -> any Error {
    if error is CancellationError || Task.isCancelled { return CancellationError() }
    if error is NIOTooManyBytesError { return NumberFactError.responseTooLarge(limit: limit) }
    if let error = error as? HTTPClientError {
      switch error {
      case .cancelled: return CancellationError()
      case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout:
        return NumberFactError.timedOut(after: timeout)
      case .tlsHandshakeTimeout:
        return NumberFactError.tlsFailed(host: host)
      case .invalidURL, .emptyHost, .emptyScheme:
        return NumberFactError.invalidURL(host)
      case .remoteConnectionClosed:
        // The host took the connection and closed it: reached, then lost.
        return NumberFactError.connectionLost
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
    // A reset or a broken pipe comes from a host that had accepted the connection.
    if let error = error as? IOError, [ECONNRESET, EPIPE].contains(error.errnoCode) {
      return NumberFactError.connectionLost
    }
    return NumberFactError.unreachable(host: host)
  }
}

extension TimeAmount {
  /// `duration`, saturated to what a `TimeAmount` holds.
  fileprivate init(_ duration: Duration) {
    self = .nanoseconds(duration.saturatedNanoseconds)
  }
}
