import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension NumberFactClient {
  /// numbersapi.com, which serves plain HTTP only.
  public static let defaultBaseURL = URL(string: "http://numbersapi.com")!

  /// The largest answer body the live client reads, in bytes.
  public static let maximumBodySize = 64 * 1024

  /// Asks a numbersapi-compatible server: `GET {baseURL}/{number}/{kind}?json`.
  ///
  /// - Parameters:
  ///   - baseURL: The server; a path in it is kept as a prefix.
  ///   - timeout: The limit for the whole request, from connecting to the last byte.
  ///     A server that never answers, or drips bytes slowly, fails with
  ///     ``NumberFactError/timedOut(after:)`` when it runs out.
  /// - Returns: A client whose facts are sanitized and marked `source: .live`.
  public static func live(
    baseURL: URL = defaultBaseURL,
    timeout: Duration = .seconds(5)
  ) -> Self {
    Self { number, kind in
      guard let url = factURL(baseURL: baseURL, number: number, kind: kind) else {
        throw NumberFactError.invalidURL(baseURL.absoluteString)
      }
      let (status, body) = try await HTTPFetch.get(url, timeout: timeout, limit: maximumBodySize)
      guard status == 200 else { throw NumberFactError.httpStatus(status) }
      return try decodeFact(body, number: number, kind: kind)
    }
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

/// One HTTP GET with a deadline for the whole exchange, a cap on the body, and prompt
/// cancellation.
///
/// The body is streamed through a session delegate so that reading stops at the cap, and a
/// `Content-Length` over the cap fails before any of the body is read.
final class HTTPFetch: NSObject, URLSessionDataDelegate, Sendable {
  private struct State {
    var continuation: CheckedContinuation<(Int, Data), any Error>?
    var task: URLSessionDataTask?
    var status = 0
    var body = Data()
    var finished = false
  }

  private let limit: Int
  private let host: String
  private let timeout: Duration
  private let state = Mutex(State())

  private init(limit: Int, host: String, timeout: Duration) {
    self.limit = limit
    self.host = host
    self.timeout = timeout
  }

  static func get(_ url: URL, timeout: Duration, limit: Int) async throws -> (Int, Data) {
    try await withThrowingTaskGroup(of: (Int, Data)?.self) { group in
      group.addTask { try await fetch(url, limit: limit, timeout: timeout) }
      group.addTask {
        try await Task.sleep(for: timeout)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let response = first else {
        try Task.checkCancellation()
        throw NumberFactError.timedOut(after: timeout)
      }
      return response
    }
  }

  private static func fetch(_ url: URL, limit: Int, timeout: Duration) async throws -> (Int, Data) {
    let delegate = HTTPFetch(limit: limit, host: url.host ?? "", timeout: timeout)
    let configuration = URLSessionConfiguration.ephemeral
    // The deadline in `get` covers the whole exchange; the session's own timeouts only
    // back it up, so they must not fire first, even when the process is too busy to run
    // the deadline's task at once.
    let seconds = Double(timeout.components.seconds) + 10
    configuration.timeoutIntervalForRequest = seconds
    configuration.timeoutIntervalForResource = seconds
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    defer { session.invalidateAndCancel() }
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue("numberfact", forHTTPHeaderField: "User-Agent")
    let task = session.dataTask(with: request)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        delegate.start(task, continuation)
      }
    } onCancel: {
      delegate.finish(.failure(CancellationError()))
    }
  }

  private func start(
    _ task: URLSessionDataTask, _ continuation: CheckedContinuation<(Int, Data), any Error>
  ) {
    let alreadyCancelled = state.withLock { state -> Bool in
      if state.finished { return true }
      state.continuation = continuation
      state.task = task
      return false
    }
    if alreadyCancelled {
      continuation.resume(throwing: CancellationError())
    } else {
      task.resume()
    }
  }

  /// Ends the exchange once, whoever gets here first: the delegate, the limit, or a cancel.
  private func finish(_ result: Result<(Int, Data), any Error>) {
    let (continuation, task) = state.withLock { state in
      guard !state.finished else {
        return (nil, nil) as (CheckedContinuation<(Int, Data), any Error>?, URLSessionDataTask?)
      }
      state.finished = true
      defer { (state.continuation, state.task) = (nil, nil) }
      return (state.continuation, state.task)
    }
    task?.cancel()
    continuation?.resume(with: result)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    if status != 200 {
      // The body of an error page is of no use; do not read it.
      completionHandler(.cancel)
      finish(.success((status, Data())))
    } else if response.expectedContentLength > Int64(limit) {
      completionHandler(.cancel)
      finish(.failure(NumberFactError.responseTooLarge(limit: limit)))
    } else {
      state.withLock { $0.status = status }
      completionHandler(.allow)
    }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let overLimit = state.withLock { state -> Bool in
      state.body.append(data)
      return state.body.count > limit
    }
    if overLimit { finish(.failure(NumberFactError.responseTooLarge(limit: limit))) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let error else {
      let response = state.withLock { ($0.status, $0.body) }
      finish(.success(response))
      return
    }
    let responded = state.withLock { $0.status != 0 }
    finish(.failure(translate(error, responded: responded)))
  }

  /// Maps a transport error to what a person should read. Once the response has begun,
  /// the host was reached, so any later failure is a lost connection, whatever code the
  /// HTTP stack picked for it.
  private func translate(_ error: any Error, responded: Bool) -> any Error {
    let code = (error as? URLError)?.code
    if code == .cancelled { return CancellationError() }
    if code == .timedOut { return NumberFactError.timedOut(after: timeout) }
    if responded { return NumberFactError.connectionLost }
    switch code {
    case .networkConnectionLost?, .badServerResponse?, .cannotParseResponse?,
      .zeroByteResource?:
      return NumberFactError.connectionLost
    default:
      return NumberFactError.unreachable(host: host)
    }
  }
}
