import FactClient
import FactClientLive
import FactServerSupport
import Foundation
import Testing

/// The rest of the server's API: random numbers and batches.
@Suite struct APITests {
  @Test func randomAsksTheServerAndTakesTheNumberItPicked() async throws {
    let server = try await FactServer(
      body: factJSON(text: "1729 is a taxicab number.", number: "1729"))
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .random(.math, 1...2_000)
    let request = try #require(await server.nextRequest())
    #expect(request.path == "/random/math")
    #expect(request.query == ["json", "min", "max"])
    #expect(request.values["min"] == "1" && request.values["max"] == "2000")
    #expect(fact.number == 1729 && fact.kind == .math && fact.source == .live)
  }

  @Test(arguments: [#""1729""#, "1.729e3"])
  func randomReadsTheNumberInAnyIntegerShape(number: String) async throws {
    let server = try await FactServer(body: factJSON(text: "A fact.", number: number))
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .random(.trivia, nil)
    #expect(fact.number == 1729)
    #expect(try #require(await server.nextRequest()).query == ["json"])
  }

  @Test(arguments: [#""lots""#, "1e300", "1.5"])
  func aRandomFactWithoutAnIntegerIsMalformed(number: String) async throws {
    let server = try await FactServer(body: factJSON(text: "A fact.", number: number))
    defer { Task { await server.stop() } }
    await #expect(throws: NumberFactError.malformedResponse(reason: "no number in a random fact")) {
      try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout).random(
        .trivia, nil)
    }
  }

  /// A server that answers a batch path ("1..3,7") with an object keyed by number.
  static func batchServer(found: @escaping @Sendable (Int) -> Bool = { _ in true }) async throws
    -> FactServer
  {
    try await FactServer { request in
      let list = request.path.split(separator: "/").first ?? ""
      var numbers: [Int] = []
      for part in list.split(separator: ",") {
        let bounds = part.components(separatedBy: "..").compactMap { Int($0) }
        numbers += bounds.count == 2 ? Array(bounds[0]...bounds[1]) : bounds
      }
      let body = numbers.map { number in
        "\"\(number)\": "
          + factJSON(text: "Fact \(number).", number: "\(number)", found: found(number))
      }.joined(separator: ", ")
      return HTTPResponse(statusCode: .ok, body: Data("{\(body)}".utf8))
    }
  }

  @Test func aBatchIsOneRequestWithRunsAsRangesAndComesBackInTheOrderAsked() async throws {
    let server = try await Self.batchServer()
    defer { Task { await server.stop() } }
    let numbers = [10, -3, 1, 2, 3, 5, 6, 3]
    let facts = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .facts(numbers, .trivia)
    #expect(facts.map(\.number) == numbers)
    #expect(facts.map(\.text) == numbers.map { "Fact \($0)." })
    #expect(facts.allSatisfy { $0.host == "127.0.0.1:\(server.baseURL.port ?? 0)" })
    #expect(try #require(await server.nextRequest()).path == "/-3,1..3,5,6,10/trivia")
  }

  @Test func aBatchOverTheServersLimitIsSplit() async throws {
    let server = try await Self.batchServer()
    defer { Task { await server.stop() } }
    let facts = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .facts(
        Array(1...150), .math)
    #expect(facts.map(\.number) == Array(1...150))
    #expect(try #require(await server.nextRequest()).path == "/1..100/math")
    #expect(try #require(await server.nextRequest()).path == "/101..150/math")
  }

  @Test func notFoundStaysDistinguishableInABatch() async throws {
    let server = try await Self.batchServer(found: { $0 != 2 })
    defer { Task { await server.stop() } }
    let facts = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .facts([1, 2, 3], .year)
    #expect(facts.map(\.found) == [true, false, true])
  }

  @Test func aBatchAnswerMissingANumberIsMalformed() async throws {
    let server = try await FactServer(body: #"{"1": {"text": "One.", "found": true}}"#)
    defer { Task { await server.stop() } }
    await #expect(throws: NumberFactError.malformedResponse(reason: "no fact about 2 in the batch"))
    {
      try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout).facts(
        [1, 2], .trivia)
    }
  }

  @Test func datesAreAskedOneByOneAsMonthAndDay() async throws {
    let server = try await FactServer(body: factJSON(text: "A day.", type: "date"))
    defer { Task { await server.stop() } }
    let facts = try await NumberFactClient.live(baseURL: server.baseURL, timeout: untestedTimeout)
      .facts([60, 61], .date)
    #expect(facts.map(\.number) == [60, 61])
    #expect(try #require(await server.nextRequest()).path == "/2/29/date")
    #expect(try #require(await server.nextRequest()).path == "/3/1/date")
  }

  @Test func aBatchFallsBackWholeWhenTheServerIsUnreachable() async throws {
    let url = try await FactServer.closedPortURL()
    let facts = try await NumberFactClient.auto(baseURL: url, timeout: untestedTimeout).facts(
      [1, 2, 3], .math)
    #expect(facts.map(\.number) == [1, 2, 3])
    #expect(facts.allSatisfy { $0.source == .offline && $0.offlineReason != nil })
  }
}
