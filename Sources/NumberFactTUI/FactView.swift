import Foundation
import NumberFactCore

/// Everything the screen shows: the feature's state plus what only the terminal app has.
public struct ViewState: Hashable, Sendable {
  /// The feature's state.
  public var feature: NumberFactFeature.State
  /// Which spinner frame to show while loading; any value, it wraps.
  public var spinnerFrame: Int
  /// Whether the key help replaces the fact.
  public var showsHelp: Bool
  /// The number being typed on the count line, while the prompt is open.
  public var prompt: NumberPrompt?
  /// Where the fact shown is among the facts seen ("3 of 7").
  public var historyPosition: HistoryPosition?
  /// The time a stored fact's age is told against ("seen 3 days ago"), set when the fact
  /// is shown, so the view never reads the clock. Without it, the age is told as of when
  /// the fact was seen.
  public var now: Date?
  /// A line about what the last key did ("Copied the fact to the clipboard."), until the
  /// next key or the next fact.
  public var notice: String?

  /// Creates a view state.
  public init(
    feature: NumberFactFeature.State = .init(), spinnerFrame: Int = 0, showsHelp: Bool = false,
    prompt: NumberPrompt? = nil, historyPosition: HistoryPosition? = nil, now: Date? = nil,
    notice: String? = nil
  ) {
    self.feature = feature
    self.spinnerFrame = spinnerFrame
    self.showsHelp = showsHelp
    self.prompt = prompt
    self.historyPosition = historyPosition
    self.now = now
    self.notice = notice
  }
}

/// The pure view: a state and a size in, a frame out. No terminal, no side effects.
///
/// From 9 rows and 24 columns up it draws a title bar, the count and kind, the fact and
/// the key hints; below that, a compact layout puts the count first and the fact after it.
/// Every row fits the width, whatever the text, down to a 1×1 terminal.
public enum FactView {
  /// The spinner's frames, drawn one after another while a request is in flight.
  public static let spinner: [String] = ["|", "/", "-", "\\"]

  /// The widest the fact's lines get, however wide the terminal: longer lines are hard to
  /// read and to follow back to the start of the next.
  public static let readableWidth = 76

  /// The smallest size that gets the full layout.
  public static let fullLayoutSize = TerminalSize(rows: 9, columns: 24)

  /// The key hints at the bottom of the full layout, longest first: the longest that fits
  /// the width is shown, so even a narrow terminal keeps `?` and `q`.
  public static let hintVariants = [
    "+/- count  0-9 go to  f fact  r random  ←/→ history  t kind  ? help  q quit",
    "+/- count  f fact  r random  ←/→ history  t kind  ? help  q quit",
    "+/- count  f fact  t kind  ? help  q quit",
    "f fact  ? help  q quit",
    "? help  q quit",
    "? q",
  ]

  /// The key hints while a fact is on its way, longest first.
  public static let loadingHintVariants = [
    "c cancel  t kind  +/- count  ? help  q quit",
    "c cancel  t kind  ? help  q quit",
    "c cancel  ? help  q quit",
    "c cancel  q quit",
    "c q",
  ]

  /// The key hints while a number is typed, longest first.
  public static let promptHintVariants = [
    "Enter go  Esc cancel  - negative  Backspace erase",
    "Enter go  Esc cancel  - negative",
    "Enter go  Esc cancel",
    "Enter  Esc",
  ]

  /// The key hints while the help is shown, longest first.
  public static let helpHintVariants = ["? or Esc close help  q quit", "? close  q quit", "? q"]

  /// The key hints for what the keys do in `state`, longest first.
  public static func hintVariants(for state: ViewState) -> [String] {
    if state.prompt != nil { return promptHintVariants }
    if state.showsHelp { return helpHintVariants }
    if state.feature.isLoading { return loadingHintVariants }
    return hintVariants
  }

  /// The longest key hints that fit in `width` columns after a leading space.
  public static func hints(for width: Int) -> String {
    hints(from: hintVariants, width: width)
  }

  /// The longest key hints for `state` that fit in `width` columns after a leading space.
  public static func hints(for state: ViewState, width: Int) -> String {
    hints(from: hintVariants(for: state), width: width)
  }

  private static func hints(from variants: [String], width: Int) -> String {
    let room = width - 1
    return variants.first { DisplayWidth.of($0) <= room }
      ?? DisplayWidth.clip(variants[variants.count - 1], to: room)
  }

  /// Lays out `state` for a terminal of `size`.
  public static func frame(for state: ViewState, size: TerminalSize) -> Frame {
    guard size.rows > 0, size.columns > 0 else { return Frame(size: size, rows: []) }
    let full =
      size.rows >= fullLayoutSize.rows && size.columns >= fullLayoutSize.columns
    return Frame(size: size, rows: full ? fullLayout(state, size) : compactLayout(state, size))
  }

  private static func fullLayout(_ state: ViewState, _ size: TerminalSize) -> [Row] {
    let width = size.columns
    let feature = state.feature
    let title =
      " numberfact" + (feature.offlineUntil.map { "  offline until \(clockTime($0))" } ?? "")
    let kindLabel = "\(feature.kind.rawValue) "
    let gap = width - DisplayWidth.of(title) - DisplayWidth.of(kindLabel)
    let titleText =
      gap >= 1
      ? title + String(repeating: " ", count: gap) + kindLabel
      : pad(DisplayWidth.clip(title, to: width), to: width)
    let countRow: Row =
      if let prompt = state.prompt {
        // The typed number, with a cursor after it, where the count was.
        Row([Span("  Go to  ", .normal), Span(fit(prompt.text + "_", width - 9), .count)])
      } else {
        Row([Span("  Count  ", .normal), Span(fit("\(feature.count)", width - 9), .count)])
      }
    var rows: [Row] = [
      Row([Span(titleText, .title)]),
      Row(),
      countRow,
      Row([Span(fit("  Kind   \(feature.kind.rawValue)", width), .normal)]),
      Row(),
    ]
    let bodyHeight = size.rows - rows.count - 2
    let bodyWidth = min(width - 4, readableWidth)
    let body = bodyRows(state, width: bodyWidth)
    rows += truncate(body, to: bodyHeight, width: bodyWidth).map { row in
      Row([Span("  ")] + row.spans)
    }
    rows += Array(repeating: Row(), count: max(0, size.rows - 1 - rows.count))
    rows.append(Row([Span(" " + hints(for: state, width: width), .hint)]))
    return rows
  }

  private static func compactLayout(_ state: ViewState, _ size: TerminalSize) -> [Row] {
    let width = size.columns
    let feature = state.feature
    let number = state.prompt.map { $0.text + "_" } ?? "\(feature.count)"
    let count = DisplayWidth.clip(number, to: width)
    var header = [Span(count, .count)]
    let kind = " " + feature.kind.rawValue
    if DisplayWidth.of(count) + DisplayWidth.of(kind) <= width {
      header.append(Span(kind, .hint))
    }
    let body = bodyRows(state, width: width)
    return [Row(header)] + truncate(body, to: size.rows - 1, width: width)
  }

  /// The part under the count: help, the spinner, the error, the fact, or a prompt; then,
  /// under the fact, why the store could not be used.
  private static func bodyRows(_ state: ViewState, width: Int) -> [Row] {
    guard width > 0 else { return [] }
    var rows = mainRows(state, width: width)
    guard state.prompt == nil, !state.showsHelp else { return rows }
    for message in [state.notice, state.feature.storeMessage].compactMap({ $0 }) {
      rows += [Row()] + wrapped(safe(message), .source, width)
    }
    return rows
  }

  private static func mainRows(_ state: ViewState, width: Int) -> [Row] {
    let feature = state.feature
    if let prompt = state.prompt {
      // What was refused comes first: on a small screen the help is what gets cut.
      let refused = prompt.message.map { wrapped($0, .error, width) + [Row()] } ?? []
      return refused
        + wrapped(
          "Type a number, Enter to go there and get its fact, Esc to cancel. "
            + "- makes it negative.", .hint, width)
    }
    if state.showsHelp {
      let keysWidth = KeyMap.help.map { DisplayWidth.of($0.keys) }.max() ?? 0
      let keys = KeyMap.help.map { entry in
        let keys = pad(entry.keys, to: keysWidth)
        return Row([Span(DisplayWidth.clip("\(keys)  \(entry.action)", to: width), .normal)])
      }
      return keys + [Row()]
        + wrapped(
          "Start at N: --count N. For scripts: numberfact fact N. All options: --help.", .hint,
          width)
    }
    if feature.isLoading {
      let frame = spinner[((state.spinnerFrame % spinner.count) + spinner.count) % spinner.count]
      let text = "\(frame) Fetching a \(feature.kind.rawValue) fact about \(feature.count)…"
      return wrapped(text, .normal, width)
    }
    if let message = feature.errorMessage {
      return wrapped("Error: " + safe(message), .error, width)
    }
    if let fact = feature.fact {
      // A server that knows nothing about a number says so in a sentence of its own;
      // the source line makes that plain, so it is not read as a fact.
      let found = fact.found ? "" : " (no fact known about \(fact.number); a stand-in)"
      let position = state.historyPosition.map { " · \($0)" } ?? ""
      let source = fact.sourceLine(now: state.now ?? fact.seen ?? .distantPast)
      return wrapped(safe(fact.text), .normal, width) + [Row()]
        + wrapped("— " + safe(source) + found + position, .source, width)
    }
    return wrapped(
      "Press f for a \(feature.kind.rawValue) fact about \(feature.count).", .hint, width)
  }

  /// Text from outside the app (facts, error messages) made safe for a terminal again,
  /// whatever client produced it.
  /// A fact's text as `y` copies it and `--print` prints it: sanitized, on one line.
  public static func plainText(of fact: NumberFact) -> String {
    safe(fact.text)
  }

  private static func safe(_ text: String) -> String {
    DisplayWidth.limitingCombiningMarks(FactText.sanitize(text, maximumLength: 2_000))
  }

  private static func wrapped(_ text: String, _ role: TextRole, _ width: Int) -> [Row] {
    DisplayWidth.wrap(text, to: width).map { Row([Span($0, role)]) }
  }

  /// At most `height` rows; when rows are cut, the last one kept ends with "…".
  private static func truncate(_ rows: [Row], to height: Int, width: Int) -> [Row] {
    guard height > 0 else { return [] }
    guard rows.count > height else { return rows }
    var kept = Array(rows.prefix(height))
    if var last = kept.popLast(), let span = last.spans.last {
      var text = span.text
      while !text.isEmpty, DisplayWidth.of(text) + 1 > width { text.removeLast() }
      last.spans[last.spans.count - 1] = Span(width >= 1 ? text + "…" : "", span.role)
      kept.append(last)
    }
    return kept
  }

  /// "20:15:18": a time of day on this machine's clock, in its time zone.
  static func clockTime(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
    let pad = { (value: Int?) in String(format: "%02d", value ?? 0) }
    return "\(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second))"
  }

  private static func fit(_ text: String, _ width: Int) -> String {
    DisplayWidth.clip(text, to: max(0, width))
  }

  private static func pad(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
  }
}
