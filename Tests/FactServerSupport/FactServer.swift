// A real HTTP fact server on 127.0.0.1 for tests of the client, the app and the command
// line. A library target, not a test target, so every test target can share it.

@_exported import FlyingFox
import FlyingSocks
import Foundation

/// A fact server on 127.0.0.1, on a port of its own, for one test.
///
/// Every request is announced on `requests` before the handler answers, so a test can wait
/// for the server's own signal ("the request has arrived") instead of for time to pass.
package final class FactServer: Sendable {
  package struct Request: Sendable {
    package var path: String
    /// The query's names, in order.
    package var query: [String]
    /// The query's values by name.
    package var values: [String: String] = [:]
  }

  package let baseURL: URL
  package let requests: AsyncStream<Request>
  private let server: HTTPServer
  private let running: Task<Void, any Error>

  private struct Handler: HTTPHandler {
    let announce: AsyncStream<Request>.Continuation
    let respond: @Sendable (HTTPRequest) async throws -> HTTPResponse

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
      announce.yield(
        Request(
          path: request.path, query: request.query.map(\.name),
          values: Dictionary(
            request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })))
      return try await respond(request)
    }
  }

  package init(_ respond: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse)
    async throws
  {
    let (requests, announce) = AsyncStream<Request>.makeStream()
    self.requests = requests
    let server = HTTPServer(
      address: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0),
      handler: Handler(announce: announce, respond: respond))
    self.server = server
    running = Task { try await server.run() }
    // A failure bound, not a wait: under ThreadSanitizer, with the whole suite starting at
    // once on two cores, the server's task can wait seconds for a thread, past FlyingFox's
    // default of 5 s.
    try await server.waitUntilListening(timeout: 120)
    guard case .ip4(_, let port) = await server.listeningAddress else {
      throw CocoaError(.featureUnsupported)
    }
    baseURL = URL(string: "http://127.0.0.1:\(port)")!
  }

  /// Answers every request with `status` and `body`.
  package convenience init(status: Int = 200, headers: HTTPHeaders = [:], body: String) async throws
  {
    try await self.init(status: status, headers: headers, data: Data(body.utf8))
  }

  package convenience init(status: Int = 200, headers: HTTPHeaders = [:], data: Data) async throws {
    try await self.init { _ in
      HTTPResponse(
        statusCode: HTTPStatusCode(status, phrase: "Status"), headers: headers, body: data)
    }
  }

  /// A server that takes each request and never answers it.
  package static func silent() async throws -> FactServer {
    try await FactServer { _ in
      for await _ in AsyncStream<Never>.makeStream().stream {}
      return HTTPResponse(statusCode: .ok)
    }
  }

  /// Waits for the next request the server receives.
  package func nextRequest() async -> Request? {
    var iterator = requests.makeAsyncIterator()
    return await iterator.next()
  }

  package func stop() async {
    await server.stop()
    running.cancel()
  }

  /// A URL on 127.0.0.1 where nothing listens: connecting is refused.
  ///
  /// The port stays bound, without listening, until the process exits, so no server that
  /// another test starts meanwhile can take it.
  package static func closedPortURL() async throws -> URL {
    let socket = try Socket(domain: Int32(AF_INET), type: .stream)
    try socket.bind(to: sockaddr_in.inet(ip4: "127.0.0.1", port: 0))
    guard case .ip4(_, let port) = try socket.sockname() else {
      throw CocoaError(.featureUnsupported)
    }
    return URL(string: "http://127.0.0.1:\(port)")!
  }
}

/// JSON the way numbersapi writes it.
package func factJSON(
  text: String, number: String = "42", found: Bool = true, type: String = "trivia"
)
  -> String
{
  let escaped = String(data: try! JSONEncoder().encode(text), encoding: .utf8)!
  return #"{"text": \#(escaped), "number": \#(number), "found": \#(found), "type": "\#(type)"}"#
}
