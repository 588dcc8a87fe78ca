import NumberFactCore
import Testing

/// The facts seen, as a value: appended, de-duplicated, trimmed, restored from earlier runs
/// and stepped through, with no model and no task.
struct FactHistoryTests {
  private func fact(_ number: Int, _ text: String = "", kind: FactKind = .trivia) -> NumberFact {
    NumberFact(number: number, kind: kind, text: text.isEmpty ? "\(number) is a number." : text)
  }

  @Test func anAppendedFactIsOnScreenAtTheEnd() {
    var history = FactHistory(limit: 10)
    history.append(fact(1))
    history.append(fact(2))
    #expect(history.facts.map(\.number) == [1, 2])
    #expect(history.index == 1)
    #expect(history.position?.description == "2 of 2")
  }

  @Test func aFactSeenAgainMovesToTheEndOnce() {
    var history = FactHistory(limit: 10)
    for number in [1, 2, 3, 2] { history.append(fact(number)) }
    #expect(history.facts.map(\.number) == [1, 3, 2])
    // Another kind or another text about the same number is another fact.
    history.append(fact(3, kind: .math))
    history.append(fact(1, "1 is the loneliest number."))
    #expect(history.facts.count == 5)
  }

  @Test func theOldestGoPastTheLimitAndMayComeBack() {
    var history = FactHistory(limit: 3)
    for number in 1...5 { history.append(fact(number)) }
    #expect(history.facts.map(\.number) == [3, 4, 5])
    // A dropped fact is no longer a repeat: it comes back at the end.
    history.append(fact(1))
    #expect(history.facts.map(\.number) == [4, 5, 1])
    #expect(FactHistory(limit: 0).limit == 1)
  }

  @Test func stepsGoBackAndForthAndStopAtTheEnds() {
    var history = FactHistory(limit: 10)
    for number in 1...3 { history.append(fact(number)) }
    #expect(history.take(.next) == nil)
    #expect(history.index == 2)
    #expect(history.take(.previous)?.number == 2)
    #expect(history.take(.oldest)?.number == 1)
    #expect(history.take(.previous) == nil)
    #expect(history.index == 0)
    #expect(history.take(.newest)?.number == 3)
  }

  @Test func leavingTheHistoryStepsBackIntoItsNewest() {
    var history = FactHistory(limit: 10)
    for number in 1...3 { history.append(fact(number)) }
    history.leave()
    #expect(history.position == nil)
    #expect(history.take(.next) == nil)
    #expect(history.take(.previous)?.number == 3)
    var empty = FactHistory(limit: 10)
    #expect(empty.take(.previous) == nil && empty.take(.newest) == nil)
  }

  @Test func earlierRunsComeFirstNewestKeptAndNoRepeat() {
    var history = FactHistory(limit: 4)
    history.append(fact(7))
    history.append(fact(8))
    // Newest first, as a store gives them: 6 was seen last, then 7 (already here), 5, 4, 6.
    history.restore(earlier: [fact(6), fact(7), fact(5), fact(4), fact(6)])
    #expect(history.facts.map(\.number) == [5, 6, 7, 8])
    #expect(history.index == 3)
    #expect(history.position?.description == "4 of 4")
  }

  @Test func aFullHistoryRestoresNothing() {
    var history = FactHistory(limit: 2)
    history.append(fact(1))
    history.append(fact(2))
    history.restore(earlier: [fact(3)])
    #expect(history.facts.map(\.number) == [1, 2])
  }
}
