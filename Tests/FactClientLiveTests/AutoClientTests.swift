import FactClient
import FactClientLive
import FactServerSupport
import FlyingFox
import Foundation
import Testing

@Suite struct AutoClientTests {
  @Test func answersFromTheServerWhenItCan() async throws {
    let server = try await FactServer(body: factJSON(text: "Live fact."))
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.auto(baseURL: server.baseURL, timeout: untestedTimeout)
      .fact(9, .trivia)
    #expect(fact.source == .live)
    #expect(fact.text == "Live fact.")
  }

  @Test func fallsBackToOfflineWhenTheHostIsUnreachable() async throws {
    let url = try await FactServer.closedPortURL()
    let fact = try await NumberFactClient.auto(baseURL: url, timeout: untestedTimeout).fact(
      9, .math)
    var offline = try await NumberFactClient.offline.fact(9, .math)
    offline.offlineReason = "cannot reach 127.0.0.1:\(url.port ?? 0)"
    #expect(fact == offline)
    #expect(fact.sourceLine == "offline: cannot reach 127.0.0.1:\(url.port ?? 0)")
  }

  @Test func fallsBackToOfflineWhenTheServerTimesOut() async throws {
    let server = try await FactServer.silent()
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.auto(baseURL: server.baseURL, timeout: .milliseconds(200))
      .fact(9, .year)
    #expect(fact.source == .offline)
    #expect(fact.kind == .year)
  }

  @Test func doesNotFallBackOnAClientError() async throws {
    let server = try await FactServer(status: 404, body: "no such page")
    defer { Task { await server.stop() } }
    await #expect(throws: NumberFactError.httpStatus(404)) {
      try await NumberFactClient.auto(baseURL: server.baseURL, timeout: untestedTimeout).fact(
        9, .trivia)
    }
  }

  @Test func fallsBackOnAServerError() async throws {
    let server = try await FactServer(status: 502, body: "<html>Bad Gateway</html>")
    defer { Task { await server.stop() } }
    let fact = try await NumberFactClient.auto(baseURL: server.baseURL, timeout: untestedTimeout)
      .fact(9, .trivia)
    #expect(fact.source == .offline)
    #expect(fact.offlineReason == "127.0.0.1:\(server.baseURL.port ?? 0) answered HTTP 502")
  }

  @Test func doesNotFallBackOnAMalformedAnswer() async throws {
    let server = try await FactServer(body: "<html>captive portal</html>")
    defer { Task { await server.stop() } }
    await #expect(throws: NumberFactError.malformedResponse(reason: "not a JSON fact")) {
      try await NumberFactClient.auto(baseURL: server.baseURL, timeout: untestedTimeout).fact(
        9, .trivia)
    }
  }
}
