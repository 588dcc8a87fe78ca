/// The facts seen, oldest first, and which of them is on screen: a value, so that appending,
/// de-duplicating, trimming, restoring and stepping through it are tested without a model or
/// a task.
///
/// A fact seen again (the same number, kind and text) moves to the end instead of appearing
/// twice. At most ``limit`` facts are kept, the oldest dropped first.
package struct FactHistory: Equatable, Sendable {
  /// A step through the history.
  package enum Step: Sendable {
    /// The fact before the one on screen; the newest when none of them is on screen.
    case previous
    /// The fact after the one on screen; none when none of them is on screen.
    case next
    case oldest
    case newest
  }

  /// The facts, oldest first.
  package private(set) var facts: [NumberFact] = []
  /// Which of ``facts`` is on screen, when the fact shown is one of them.
  package private(set) var index: Int?
  /// The most facts kept.
  package let limit: Int
  /// The entries of ``facts``, to find a repeat without reading them all.
  private var entries: Set<Entry> = []

  /// An empty history that keeps at most `limit` facts (at least one).
  package init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// Where the fact on screen is, as "3 of 7" says it, when it is one of ``facts``.
  package var position: HistoryPosition? {
    index.map { HistoryPosition(number: $0 + 1, of: facts.count) }
  }

  /// Appends `fact`, moving it to the end if it was seen already, drops the oldest past the
  /// limit, and puts it on screen.
  package mutating func append(_ fact: NumberFact) {
    let entry = Entry(fact)
    if entries.contains(entry) {
      facts.removeAll { Entry($0) == entry }
    }
    facts.append(fact)
    entries.insert(entry)
    if facts.count > limit {
      let dropped = facts.count - limit
      for fact in facts.prefix(dropped) { entries.remove(Entry(fact)) }
      facts.removeFirst(dropped)
    }
    index = facts.count - 1
  }

  /// Puts the facts of earlier runs, newest first as a store gives them, before these: a
  /// repeat keeps its newest place, and only as many as there is room for are kept, the
  /// newest of them.
  package mutating func restore(earlier stored: [NumberFact]) {
    var seen = entries
    let earlier = stored.filter { seen.insert(Entry($0)).inserted }.reversed()
    let kept = Array(earlier.suffix(max(0, limit - facts.count)))
    for fact in kept { entries.insert(Entry(fact)) }
    facts = kept + facts
    if let index { self.index = index + kept.count }
  }

  /// Takes `step`, and returns the fact now on screen; `nil`, with nothing changed, when
  /// there is no fact that way.
  package mutating func take(_ step: Step) -> NumberFact? {
    let target: Int? =
      switch step {
      case .previous: (index ?? facts.count) - 1
      case .next: index.map { $0 + 1 }
      case .oldest: 0
      case .newest: facts.count - 1
      }
    guard let target, facts.indices.contains(target) else { return nil }
    index = target
    return facts[target]
  }

  /// The fact on screen is none of these any more (another number, kind or request).
  package mutating func leave() {
    index = nil
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.facts == rhs.facts && lhs.index == rhs.index && lhs.limit == rhs.limit
  }

  /// What makes two facts the same entry: the number, the kind and the text.
  private struct Entry: Hashable {
    let number: Int
    let kind: FactKind
    let text: String

    init(_ fact: NumberFact) {
      number = fact.number
      kind = fact.kind
      text = fact.text
    }
  }
}

/// Where a fact is among the facts seen, as "3 of 7" says it.
package struct HistoryPosition: Hashable, Sendable, CustomStringConvertible {
  /// Which fact, from 1.
  package var number: Int
  /// How many facts there are.
  package var count: Int

  /// The `number`th fact of `count`.
  package init(number: Int, of count: Int) {
    self.number = number
    self.count = count
  }

  /// "3 of 7".
  package var description: String { "\(number) of \(count)" }
}
