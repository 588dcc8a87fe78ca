import FlyingFox
import FlyingSocks
import Foundation
import Testing

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
