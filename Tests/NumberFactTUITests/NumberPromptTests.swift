import NumberFactCore
import NumberFactTUITesting
import NumberFactTesting
import SuiteSupport
import Testing

@testable import NumberFactTUI

@Suite struct NumberPromptTests {
  /// Feeds `keys` to a prompt opened with `start`; the last outcome and the prompt.
  func type(_ keys: [Key], startingWith start: String = "") -> (NumberPrompt.Outcome, NumberPrompt)
  {
    var prompt = NumberPrompt(start)
    var outcome = NumberPrompt.Outcome.editing
    for key in keys { outcome = prompt.handle(key) }
    return (outcome, prompt)
  }

  func keys(_ text: String) -> [Key] { text.map { Key.character($0) } }

  @Test(arguments: [
    ("1729", 1729), ("0", 0), ("-5", -5), ("5-", -5), ("--5", 5), ("007", 7),
    ("9223372036854775807", .max), ("-9223372036854775808", .min),
  ])
  func enterGoesToTheNumberTyped(text: String, number: Int) {
    let (outcome, _) = type(keys(text) + [.enter])
    #expect(outcome == .submitted(number))
  }

  @Test func aNumberBeyondAnIntIsRefusedWithAMessageAndTheTextKept() {
    let (outcome, prompt) = type(keys("99999999999999999999") + [.enter])
    #expect(outcome == .editing)
    #expect(prompt.text == "99999999999999999999")
    #expect(prompt.message?.hasPrefix("Too large") == true)
  }

  @Test func atMostTwentyCharacters() {
    let (_, prompt) = type(keys(String(repeating: "1", count: 25)))
    #expect(prompt.text.count == NumberPrompt.maximumLength)
    #expect(prompt.message?.contains("At most 20") == true)
  }

  @Test func pastedLettersAreIgnoredWithAHint() {
    let (outcome, prompt) = type(keys("12abc3"))
    #expect(outcome == .editing)
    #expect(prompt.text == "123")
    let (_, lettersLast) = type(keys("12x"))
    #expect(lettersLast.message?.hasPrefix("Only digits") == true)
  }

  @Test func enterOnNothingAsksForANumber() {
    let (outcome, prompt) = type([.character("-"), .enter])
    #expect(outcome == .editing)
    #expect(prompt.message == "Type a number first, or Esc to cancel.")
  }

  @Test func backspaceEditsAndEscOrBackspaceOnNothingCancels() {
    #expect(type(keys("12") + [.backspace, .enter]).0 == .submitted(1))
    #expect(type(keys("1") + [.backspace, .backspace]).0 == .cancelled)
    #expect(type(keys("123") + [.escape]).0 == .cancelled)
  }

  @Test func aDigitKeyOpensThePromptWithItself() {
    #expect(NumberPrompt("7").text == "7")
    #expect(NumberPrompt("x7y").text == "7")
  }
}

/// The new keys through the real render loop on a virtual terminal.
@MainActor @Suite(.timeLimit(.minutes(ThreadSanitizer.minutes(1))))
struct NewKeyTests {
  @Test func typingANumberAndEnterFetchesItsFact() async throws {
    let app = LoopHarness()
    app.terminal.type("1729")
    try await app.frame(containing: "Go to  1729_")
    app.terminal.send(.enter)
    let request = try await app.facts.nextRequest()
    #expect(request.number == 1729)
    request.answer("1729 is a taxicab number.")
    let frame = try await app.frame(containing: "1729 is a taxicab number.")
    #expect(frame.contains("Count  1729"))
    #expect(frame.contains("1 of 1"))
  }

  @Test func escLeavesTheCountAlone() async throws {
    let app = LoopHarness(count: 5)
    app.terminal.type("99")
    try await app.frame(containing: "Go to  99_")
    app.terminal.send(.escape)
    try await app.frame(containing: "Count  5")
    #expect(app.facts.requestCount == 0)
  }

  @Test func aNumberTooLargeStaysInThePromptWithTheReason() async throws {
    let app = LoopHarness()
    app.terminal.type("99999999999999999999")
    app.terminal.send(.enter)
    try await app.frame(containing: "Too large")
    app.terminal.send(.escape)
    try await app.frame(containing: "Count  0")
  }

  @Test func leftAndRightStepThroughTheFactsSeen() async throws {
    let app = LoopHarness()
    for number in ["1", "2"] {
      app.terminal.type(number)
      app.terminal.send(.enter)
      try await app.facts.nextRequest().answer("\(number) is small.")
      try await app.frame(containing: "\(number) is small.")
    }
    app.terminal.send(.left)
    var frame = try await app.frame(containing: "1 is small.")
    #expect(frame.contains("Count  1") && frame.contains("1 of 2"))
    app.terminal.send(.character("l"))
    frame = try await app.frame(containing: "2 is small.")
    #expect(frame.contains("2 of 2"))
  }

  @Test func pageUpAndDownMoveByAHundred() async throws {
    let app = LoopHarness(count: 7)
    app.terminal.send(.pageUp, .pageUp)
    try await app.frame(containing: "Count  207")
    app.terminal.send(.pageDown)
    try await app.frame(containing: "Count  107")
  }

  @Test func rAsksForARandomFact() async throws {
    let random = ControlledFunction<FactKind, NumberFact>("random")
    let app = LoopHarness(
      client: NumberFactClient(
        fact: { _, _ in throw NumberFactError.connectionLost },
        random: { kind, _ in try await random.function(kind) }))
    app.terminal.type("r")
    try await random.nextCall().answer(
      NumberFact(number: 6174, kind: .trivia, text: "6174 is Kaprekar's constant."))
    let frame = try await app.frame(containing: "6174 is Kaprekar's constant.")
    #expect(frame.contains("Count  6174"))
  }

  @Test func f1ShowsTheHelp() async throws {
    let app = LoopHarness()
    app.terminal.send(.function(1))
    try await app.frame(containing: "type a number")
  }
}
