import Dependencies
import FactClient
import Testing

@Suite struct DependencyTests {
  @Test func unoverriddenClientFailsTheTest() async {
    @Dependency(\.numberFact) var numberFact
    await withKnownIssue {
      _ = try? await numberFact.fact(5, .math)
    } matching: { issue in
      issue.description.contains("Unimplemented: @Dependency(\\.numberFact).fact(5, .math)")
    }
  }

  @Test func overriddenClientIsUsed() async throws {
    let fact = try await withDependencies {
      $0.numberFact = .offline
    } operation: {
      @Dependency(\.numberFact) var numberFact
      return try await numberFact.fact(5, .math)
    }
    #expect(fact.source == .offline)
  }
}

@Suite struct ErrorDescriptionTests {
  @Test(arguments: [
    (NumberFactError.httpStatus(404), "The fact server answered HTTP 404 (Not Found)."),
    (.httpStatus(418), "The fact server answered HTTP 418."),
    (.timedOut(after: .seconds(5)), "No answer from the fact server within 5 seconds."),
    (.timedOut(after: .milliseconds(1_500)), "No answer from the fact server within 1.5 seconds."),
    (.unreachable(host: "numbersapi.com"), "Cannot reach numbersapi.com."),
    (.connectionLost, "The connection to the fact server was lost."),
    (.responseTooLarge(limit: 65_536), "The fact server's answer was larger than 64 KiB."),
    (
      .malformedResponse(reason: "empty body"),
      "The fact server's answer was not a fact: empty body."
    ),
  ])
  func describesEachErrorOnOneLine(error: NumberFactError, text: String) {
    #expect(error.description == text)
    #expect(!error.description.contains("\n"))
  }

  @Test func onlyNetworkFailuresAreTransportFailures() {
    #expect(NumberFactError.timedOut(after: .seconds(1)).isTransportFailure)
    #expect(NumberFactError.unreachable(host: "x").isTransportFailure)
    #expect(NumberFactError.connectionLost.isTransportFailure)
    #expect(!NumberFactError.httpStatus(500).isTransportFailure)
    #expect(!NumberFactError.responseTooLarge(limit: 1).isTransportFailure)
    #expect(!NumberFactError.malformedResponse(reason: "x").isTransportFailure)
  }
}
