import FactClient
import FactClientLive
import FactServerSupport
import FlyingFox
import Foundation
import Testing

@Suite struct LiveClientTests {
  @Test func foundFactIsReadAndTrustsTheNumberWeAskedFor() async throws {
    let server = try await FactServer(
      body: factJSON(text: "42 is the answer to everything.", number: "42"))
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .fact(42, .trivia)
    #expect(
      fact
        == NumberFact(
          number: 42, kind: .trivia, text: "42 is the answer to everything.", found: true,
          source: .live, host: "127.0.0.1:\(server.baseURL.port ?? 0)"))
  }

  @Test func notFoundFactKeepsFoundFalse() async throws {
    let server = try await FactServer(
      body: factJSON(text: "123456 is an unremarkable number.", found: false))
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .fact(123_456, .math)
    #expect(fact.found == false)
    #expect(fact.number == 123_456)
    #expect(fact.kind == .math)
  }

  @Test(arguments: [#""42""#, "4.2e1", "1e300", #""lots""#])
  func numberFieldInAnyShapeIsAccepted(number: String) async throws {
    let server = try await FactServer(body: factJSON(text: "A fact.", number: number))
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .fact(42, .trivia)
    #expect(fact.number == 42)
    #expect(fact.text == "A fact.")
  }

  @Test(arguments: [
    (404, "<html><body><h1>Not Found</h1></body></html>"),
    (400, "Invalid url"),
    (500, "oops"),
    (502, "<html>Bad Gateway</html>"),
  ])
  func errorStatusIsAnErrorCarryingTheStatus(status: Int, body: String) async throws {
    let server = try await FactServer(status: status, body: body)
    defer { Task { await server.stop() } }
    await #expect(throws: NumberFactError.httpStatus(status)) {
      try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout).fact(
        1, .trivia)
    }
  }

  @Test(arguments: ["", "not json", "[1, 2, 3]", #"{"found": true}"#, #"{"text": "  \n "}"#])
  func malformedAnswerIsAnError(body: String) async throws {
    let server = try await FactServer(body: body)
    defer { Task { await server.stop() } }
    await #expect {
      try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout).fact(
        1, .trivia)
    } throws: { error in
      if case .malformedResponse = error as? NumberFactError { return true }
      return false
    }
  }

  @Test func oversizedBodyIsRejected() async throws {
    let server = try await FactServer(data: Data(repeating: UInt8(ascii: "a"), count: 1 << 20))
    defer { Task { await server.stop() } }
    await #expect(throws: NumberFactError.responseTooLarge(limit: 64 * 1024)) {
      try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout).fact(
        1, .trivia)
    }
  }

  /// The error names the limit the request was given, not the client's default.
  @Test func anOversizedBodyNamesTheLimitItPassed() async throws {
    let server = try await FactServer(data: Data(repeating: UInt8(ascii: "a"), count: 4096))
    defer { Task { await server.stop() } }
    let url = server.baseURL.appendingPathComponent("1/trivia")
    await #expect(throws: NumberFactError.responseTooLarge(limit: 1000)) {
      // failure bound: the server answers at once
      _ = try await FactHTTP.get(url, timeout: .seconds(60), limit: 1000)
    }
    // failure bound: the server answers at once
    let (status, body) = try await FactHTTP.get(url, timeout: .seconds(60), limit: 4096)
    #expect(status == 200 && body.count == 4096)
  }

  @Test func oversizedBodyWithoutALengthIsCutOffAtTheLimit() async throws {
    let (chunks, feed) = AsyncStream<[UInt8]>.makeStream()
    let server = try await FactServer { _ in
      HTTPResponse(statusCode: .ok, body: HTTPBodySequence(from: FedBody(chunks: chunks)))
    }
    defer { Task { await server.stop() } }
    // Far more than the limit is offered; the client must stop reading at 64 KiB.
    for _ in 0..<64 { feed.yield([UInt8](repeating: UInt8(ascii: "a"), count: 16 * 1024)) }
    await #expect(throws: NumberFactError.responseTooLarge(limit: 64 * 1024)) {
      try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout).fact(
        1, .trivia)
    }
    feed.finish()
  }

  @Test func invalidUTF8IsReplacedNotFatal() async throws {
    var body = Data(#"{"text": "bad "#.utf8)
    body.append(contentsOf: [0xFF, 0xFE, 0xC3])
    body.append(contentsOf: Data(#" bytes", "found": true}"#.utf8))
    let server = try await FactServer(data: body)
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .fact(7, .trivia)
    #expect(fact.text.hasPrefix("bad "))
    #expect(fact.text.hasSuffix(" bytes"))
    #expect(fact.text.contains("\u{FFFD}"))
  }

  @Test func escapeSequencesAndBidiOverridesAreStripped() async throws {
    let hostile =
      "\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}7 is \u{1B}[31mred\u{1B}[0m\u{202E}desrever\u{202C} and\u{1B}c\n\tsafe\u{9B}2J."
    let server = try await FactServer(body: factJSON(text: hostile))
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .fact(7, .trivia)
    #expect(fact.text == "7 is reddesrever and safe.")
  }

  @Test(arguments: [
    (-5, FactKind.trivia, "/-5/trivia"), (0, .math, "/0/math"), (-44, .year, "/-44/year"),
    (.max, .math, "/9223372036854775807/math"),
    // A day of the year goes on the wire as month and day.
    (366, .date, "/12/31/date"), (60, .date, "/2/29/date"), (1, .date, "/1/1/date"),
    (0, .date, "/0/date"), (400, .date, "/400/date"),
  ])
  func requestURLIsNumberThenKindThenJSON(number: Int, kind: FactKind, path: String)
    async throws
  {
    let server = try await FactServer(body: factJSON(text: "A fact."))
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .fact(number, kind)
    let request = try #require(await server.nextRequest())
    #expect(request.path == path)
    #expect(request.query == ["json"])
    #expect(fact.number == number)
  }

  @Test func baseURLPathIsKeptAsAPrefix() throws {
    let url = NumberFactClient.factURL(
      baseURL: URL(string: "http://example.com/api/")!, number: -3, kind: .year)
    #expect(url?.absoluteString == "http://example.com/api/-3/year?json")
    #expect(
      NumberFactClient.factURL(baseURL: URL(string: "file:///tmp")!, number: 1, kind: .math)
        == nil)
  }

  @Test func serverThatNeverAnswersTimesOutOnTime() async throws {
    let server = try await FactServer.silent()
    defer { Task { await server.stop() } }
    let clock = ContinuousClock()
    let start = clock.now
    await #expect(throws: NumberFactError.timedOut(after: .milliseconds(300))) {
      try await NumberFactClient.live(baseURL: server.baseURL, timeout: .milliseconds(300))
        .fact(1, .trivia)
    }
    // Well under the session's backup timeout (timeout + 10 s), with room for a busy machine.
    #expect(clock.now - start < .seconds(5))
  }

  /// A server that starts its answer and then goes quiet with the connection open: bytes
  /// have arrived, so only a deadline over the whole exchange ends the wait on time.
  @Test func serverThatStallsMidBodyTimesOutOnTime() async throws {
    let (chunks, feed) = AsyncStream<[UInt8]>.makeStream()
    let server = try await FactServer { _ in
      HTTPResponse(
        statusCode: .ok, headers: [.contentLength: "1000"],
        body: HTTPBodySequence(from: FedBody(chunks: chunks), count: 1_000))
    }
    defer { Task { await server.stop() } }
    feed.yield(Array(#"{"text": "slow"#.utf8))
    let clock = ContinuousClock()
    let start = clock.now
    await #expect(throws: NumberFactError.timedOut(after: .milliseconds(300))) {
      try await NumberFactClient.live(baseURL: server.baseURL, timeout: .milliseconds(300))
        .fact(1, .trivia)
    }
    feed.finish()
    // Well under the session's backup timeout (timeout + 10 s), with room for a busy machine.
    #expect(clock.now - start < .seconds(5))
  }

  @Test func connectionClosedMidBodyIsConnectionLost() async throws {
    let url = try rawServerOnce(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"text\": \"cut"
    )
    await #expect(throws: NumberFactError.connectionLost) {
      // failure bound: the server answers at once
      try await NumberFactClient.live(baseURL: url, timeout: .seconds(60)).fact(1, .trivia)
    }
  }

  /// A server killed after it took the request: it was reached, so the connection was lost;
  /// "cannot reach" would send a person looking at the network.
  @Test func connectionClosedBeforeTheAnswerIsConnectionLost() async throws {
    let url = try rawServerOnce("")
    await #expect(throws: NumberFactError.connectionLost) {
      // failure bound: the server answers at once
      try await NumberFactClient.live(baseURL: url, timeout: .seconds(60)).fact(1, .trivia)
    }
  }

  /// The request ends with the cancellation, not with its timeout. The bound tells the two
  /// apart with room for a loaded machine under ThreadSanitizer, where the cancellation has
  /// taken close to two seconds to arrive.
  @Test func cancellingTheCallerCancelsTheRequestPromptly() async throws {
    let server = try await FactServer.silent()
    defer { Task { await server.stop() } }
    let fetch = Task {
      try await NumberFactClient.live(baseURL: server.baseURL, timeout: .seconds(60))
        .fact(1, .trivia)
    }
    _ = await server.nextRequest()
    let clock = ContinuousClock()
    let start = clock.now
    fetch.cancel()
    await #expect(throws: CancellationError.self) { try await fetch.value }
    #expect(clock.now - start < .seconds(10))  // failure bound: a sixth of the timeout
  }

  @Test func unreachableHostIsUnreachableAtOnce() async throws {
    let url = try await FactServer.closedPortURL()
    // A refused connection is not retried until the deadline: with a minute to spare, it
    // still fails as unreachable, not as timed out.
    await #expect(throws: NumberFactError.unreachable(host: "127.0.0.1:\(url.port ?? 0)")) {
      try await NumberFactClient.live(baseURL: url, timeout: .seconds(60)).fact(1, .trivia)
    }
  }
}
