/// Where the keys are: the screens that give keys another meaning or another key bar.
package enum KeyContext: Hashable, Sendable, CaseIterable {
  /// The counter, with or without a fact on screen.
  case counter
  /// A fact is on its way.
  case loading
  /// The help replaces the fact.
  case help
  /// The number prompt is open: keys edit the number.
  case prompt
}

/// A binding's place in the key bar: its keys and a word or two.
package struct KeyHint: Hashable, Sendable {
  /// The keys as the bar names them: "+/-", "? or Esc".
  package var keys: String
  /// What they do: "count", "close help".
  package var word: String
  /// The keys in the narrowest bar, which names keys only: "?".
  package var shortKeys: String
  /// When the bar is too narrow for every hint, the highest ranks go first; the hints of
  /// rank 1 stay, down to the narrowest bar.
  package var rank: Int

  /// A hint of `rank`; the narrowest bar names `shortKeys`, by default the keys.
  package init(_ keys: String, _ word: String, rank: Int, shortKeys: String? = nil) {
    self.keys = keys
    self.word = word
    self.rank = rank
    self.shortKeys = shortKeys ?? keys
  }

  /// "+/- count".
  package var text: String { "\(keys) \(word)" }
}

/// Keys, what they do, and how the help and the key bar say so: one line of the help
/// screen. The tables in ``KeyBindings`` are the one place a key is bound; the key map, the
/// help screen, the key bar and `numberfact --help` are all read from them.
package struct KeyBinding<Meaning: Hashable & Sendable>: Sendable {
  /// The keys as the help names them: "+ = ↑ k".
  package let names: String
  /// What the keys do, as the help says it: "count up".
  package let summary: String
  /// Each key and what it means.
  package let keys: [(key: Key, meaning: Meaning)]
  /// The binding's hint in the key bar of each context that shows one.
  package let hints: [KeyContext: KeyHint]

  /// A binding of `keys`, each to `meaning`.
  package init(
    _ names: String, _ summary: String, _ meaning: Meaning, keys: [Key],
    hints: [KeyContext: KeyHint] = [:]
  ) {
    self.init(names, summary, keys: keys.map { ($0, meaning) }, hints: hints)
  }

  /// A binding whose keys mean different things, told in one line of the help.
  package init(
    _ names: String, _ summary: String, keys: [(key: Key, meaning: Meaning)],
    hints: [KeyContext: KeyHint] = [:]
  ) {
    self.names = names
    self.summary = summary
    self.keys = keys
    self.hints = hints
  }

  /// ``names`` in plain words for text that may not reach a UTF-8 terminal:
  /// "Left h  Right l".
  package var plainNames: String {
    names.replacing("↑", with: "Up").replacing("↓", with: "Down")
      .replacing("←", with: "Left").replacing("→", with: "Right")
  }
}

/// The app's keys: every binding, once.
package enum KeyBindings {
  /// The keys of the counter, the loading screen and the help, in the help's order.
  package static let app: [KeyBinding<Action>] = [
    KeyBinding(
      "+ = ↑ k", "count up", .increment,
      keys: [.character("+"), .character("="), .up, .character("k")],
      hints: [
        .counter: KeyHint("+/-", "count", rank: 3), .loading: KeyHint("+/-", "count", rank: 4),
      ]),
    KeyBinding(
      "- _ ↓ j", "count down", .decrement,
      keys: [.character("-"), .character("_"), .down, .character("j")]),
    KeyBinding(
      "PgUp PgDn", "count up or down by 100", keys: [(.pageUp, .stepUp), (.pageDown, .stepDown)]),
    KeyBinding(
      "0-9 g", "type a number (- makes it negative), Enter to go", .typeNumber,
      keys: "0123456789g".map { .character($0) },
      hints: [.counter: KeyHint("0-9", "go to", rank: 5)]),
    KeyBinding(
      "f Enter Space", "get a fact", .getFact, keys: [.character("f"), .enter, .character(" ")],
      hints: [.counter: KeyHint("f", "fact", rank: 2)]),
    KeyBinding(
      "c Esc", "cancel the request", .cancel, keys: [.character("c"), .escape],
      hints: [.loading: KeyHint("c", "cancel", rank: 1)]),
    KeyBinding(
      "r", "a fact about a random number", .random, keys: [.character("r")],
      hints: [.counter: KeyHint("r", "random", rank: 4)]),
    KeyBinding(
      "← h  → l", "step back and forth through the facts seen",
      keys: [
        (.left, .previousFact), (.character("h"), .previousFact), (.right, .nextFact),
        (.character("l"), .nextFact),
      ],
      hints: [.counter: KeyHint("←/→", "history", rank: 4)]),
    KeyBinding(
      "Home End", "the oldest and the newest fact seen",
      keys: [(.home, .oldestFact), (.end, .newestFact)]),
    KeyBinding(
      "t", "next kind of fact (fetched again if one is shown)", .nextKind, keys: [.character("t")],
      hints: [.counter: KeyHint("t", "kind", rank: 3), .loading: KeyHint("t", "kind", rank: 3)]),
    KeyBinding(
      "n", "ask the fact server now, even while offline", .askNetwork, keys: [.character("n")]),
    KeyBinding(
      "? F1", "show or hide this help", .toggleHelp, keys: [.character("?"), .function(1)],
      hints: [
        .counter: KeyHint("?", "help", rank: 1), .loading: KeyHint("?", "help", rank: 2),
        .help: KeyHint("? or Esc", "close help", rank: 1, shortKeys: "?"),
      ]),
    KeyBinding(
      "y", "copy the fact to the clipboard (through the terminal)", .copyFact,
      keys: [.character("y")]),
    KeyBinding(
      "Ctrl-D Ctrl-U", "scroll a fact too long for the screen down and up",
      keys: [(.control("d"), .scrollDown), (.control("u"), .scrollUp)]),
    KeyBinding("Ctrl-L", "redraw the screen", .repaint, keys: [.control("l")]),
    KeyBinding("Ctrl-Z", "suspend (fg resumes)", .suspend, keys: [.control("z")]),
    KeyBinding(
      "q Ctrl-C", "quit", .quit, keys: [.character("q"), .control("c")],
      hints: [
        .counter: KeyHint("q", "quit", rank: 1), .loading: KeyHint("q", "quit", rank: 1),
        .help: KeyHint("q", "quit", rank: 1),
      ]),
  ]

  /// The keys of the number prompt. A key not here is refused with a message; Ctrl-C still
  /// quits.
  package static let prompt: [KeyBinding<NumberPrompt.Edit>] = [
    KeyBinding(
      "Enter", "go to the number and get its fact", .submit, keys: [.enter],
      hints: [.prompt: KeyHint("Enter", "go", rank: 1)]),
    KeyBinding(
      "Esc", "close the prompt, changing nothing", .cancel, keys: [.escape],
      hints: [.prompt: KeyHint("Esc", "cancel", rank: 1)]),
    KeyBinding("0-9", "type a digit", .digit, keys: "0123456789".map { .character($0) }),
    KeyBinding(
      "-", "make the number negative, or positive again", .negate, keys: [.character("-")],
      hints: [.prompt: KeyHint("-", "negative", rank: 2)]),
    KeyBinding(
      "Backspace", "erase the last character; on an empty prompt, close it", .erase,
      keys: [.backspace], hints: [.prompt: KeyHint("Backspace", "erase", rank: 3)]),
  ]

  /// What each key of the app means.
  static let actions: [Key: Action] = meanings(of: app)

  /// What each key of the prompt means.
  static let edits: [Key: NumberPrompt.Edit] = meanings(of: prompt)

  private static func meanings<Meaning>(of bindings: [KeyBinding<Meaning>]) -> [Key: Meaning] {
    var meanings: [Key: Meaning] = [:]
    for binding in bindings {
      for (key, meaning) in binding.keys {
        precondition(meanings.updateValue(meaning, forKey: key) == nil, "\(key) is bound twice")
      }
    }
    return meanings
  }

  /// The key bar of `context`, widest first: each narrower one leaves out the hints of the
  /// highest rank left, and the narrowest names only the keys of rank 1.
  package static func hintVariants(in context: KeyContext) -> [String] {
    let hints =
      context == .prompt
      ? prompt.compactMap { $0.hints[context] } : app.compactMap { $0.hints[context] }
    let ranks = Set(hints.map(\.rank)).sorted(by: >)
    var variants = ranks.map { rank in
      hints.filter { $0.rank <= rank }.map(\.text).joined(separator: "  ")
    }
    variants.append(hints.filter { $0.rank == 1 }.map(\.shortKeys).joined(separator: " "))
    return variants
  }

  /// The keys of the app in one paragraph, for `numberfact --help`.
  package static var summary: String {
    app.map { "\($0.plainNames) \($0.summary)" }.joined(separator: "; ") + "."
  }
}
