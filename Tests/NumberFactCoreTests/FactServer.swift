import FlyingFox
import FlyingSocks
import Foundation
import Testing

/// A fact server on 127.0.0.1, on a port of its own, for one test.
///
/// Every request is announced on `requests` before the handler answers, so a test can wait
/// for the server's own signal ("the request has arrived") instead of for time to pass.
final class FactServer: Sendable {
  struct Request: Sendable {
    var path: String
    var query: [String]
  }

  let baseURL: URL
  let requests: AsyncStream<Request>
  private let server: HTTPServer
  private let running: Task<Void, any Error>

  private struct Handler: HTTPHandler {
    let announce: AsyncStream<Request>.Continuation
    let respond: @Sendable (HTTPRequest) async throws -> HTTPResponse

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
      announce.yield(Request(path: request.path, query: request.query.map(\.name)))
      return try await respond(request)
    }
  }

  init(_ respond: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws {
    let (requests, announce) = AsyncStream<Request>.makeStream()
    self.requests = requests
    let server = HTTPServer(
      address: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0),
      handler: Handler(announce: announce, respond: respond))
    self.server = server
    running = Task { try await server.run() }
    try await server.waitUntilListening()
    guard case .ip4(_, let port) = await server.listeningAddress else {
      throw CocoaError(.featureUnsupported)
    }
    baseURL = URL(string: "http://127.0.0.1:\(port)")!
  }

  /// Answers every request with `status` and `body`.
  convenience init(status: Int = 200, headers: HTTPHeaders = [:], body: String) async throws {
    try await self.init(status: status, headers: headers, data: Data(body.utf8))
  }

  convenience init(status: Int = 200, headers: HTTPHeaders = [:], data: Data) async throws {
    try await self.init { _ in
      HTTPResponse(
        statusCode: HTTPStatusCode(status, phrase: "Status"), headers: headers, body: data)
    }
  }

  /// A server that takes each request and never answers it.
  static func silent() async throws -> FactServer {
    try await FactServer { _ in
      for await _ in AsyncStream<Never>.makeStream().stream {}
      return HTTPResponse(statusCode: .ok)
    }
  }

  /// Waits for the next request the server receives.
  func nextRequest() async -> Request? {
    var iterator = requests.makeAsyncIterator()
    return await iterator.next()
  }

  func stop() async {
    await server.stop()
    running.cancel()
  }

  /// A URL on 127.0.0.1 where nothing listens: the port of a server that has stopped.
  static func closedPortURL() async throws -> URL {
    let server = try await FactServer { _ in HTTPResponse(statusCode: .ok) }
    await server.stop()
    return server.baseURL
  }
}

/// Serves one HTTP exchange byte for byte: reads the request head, writes `response`
/// exactly as given, then closes the connection. For answers no well-behaved server sends,
/// such as a body cut short of its `Content-Length`.
func rawServerOnce(_ response: String) throws -> URL {
  let listener = try Socket(domain: Int32(AF_INET), type: .stream)
  try listener.setValue(true, for: .localAddressReuse)
  try listener.bind(to: sockaddr_in.inet(ip4: "127.0.0.1", port: 0))
  try listener.listen()
  guard case .ip4(_, let port) = try listener.sockname() else {
    throw CocoaError(.featureUnsupported)
  }
  Thread.detachNewThread {
    defer { try? listener.close() }
    guard let (file, _) = try? listener.accept() else { return }
    let client = Socket(file: file)
    defer { try? client.close() }
    var head: [UInt8] = []
    while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
      guard let byte = try? client.read() else { return }
      head.append(byte)
    }
    _ = try? client.write(Data(response.utf8))
  }
  return URL(string: "http://127.0.0.1:\(port)")!
}

/// A response body the test feeds chunk by chunk, declared as `count` bytes long.
///
/// Ending it early (`finish()` before `count` bytes) makes the server drop the connection
/// mid-body; never finishing it leaves the client waiting for the rest.
struct FedBody: AsyncBufferedSequence, Sendable {
  typealias Element = UInt8
  let chunks: AsyncStream<[UInt8]>

  struct AsyncIterator: AsyncBufferedIteratorProtocol {
    var base: AsyncStream<[UInt8]>.AsyncIterator
    var buffer: [UInt8] = []

    mutating func next() async throws -> UInt8? {
      try await nextBuffer(suggested: 1)?.first
    }

    mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
      if buffer.isEmpty {
        guard let chunk = await base.next() else { return nil }
        buffer = chunk
      }
      let taken = Array(buffer.prefix(count))
      buffer.removeFirst(taken.count)
      return taken
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: chunks.makeAsyncIterator())
  }
}

extension HTTPStatusCode {
  init(_ code: Int) { self.init(code, phrase: "Status") }
}

/// JSON the way numbersapi writes it.
func factJSON(text: String, number: String = "42", found: Bool = true, type: String = "trivia")
  -> String
{
  let escaped = String(data: try! JSONEncoder().encode(text), encoding: .utf8)!
  return #"{"text": \#(escaped), "number": \#(number), "found": \#(found), "type": "\#(type)"}"#
}
