import Foundation
import NumberFactCore

/// The pure view: a state and a size in, a frame out. No terminal, no side effects.
///
/// From 9 rows and 24 columns up it draws a title bar, the count and kind, the fact and
/// the key hints; below that, a compact layout puts the count first and the fact after it.
/// Every row fits the width, whatever the text, down to a 1×1 terminal.
package enum FactView {
  /// The spinner's frames, drawn one after another while a request is in flight.
  package static let spinner: [String] = ["|", "/", "-", "\\"]

  /// The widest the fact's lines get, however wide the terminal: longer lines are hard to
  /// read and to follow back to the start of the next.
  package static let readableWidth = 76

  /// The smallest size that gets the full layout.
  package static let fullLayoutSize = TerminalSize(rows: 9, columns: 24)

  /// Which keys work now, for the key bar: the prompt's, the help's, while loading, or the
  /// counter's.
  package static func keyContext(of state: ViewState) -> KeyContext {
    if state.prompt != nil { return .prompt }
    if state.showsHelp { return .help }
    if state.feature.isLoading { return .loading }
    return .counter
  }

  /// The key bars for what the keys do in `state`, widest first.
  package static func hintVariants(for state: ViewState) -> [String] {
    KeyBindings.hintVariants(in: keyContext(of: state))
  }

  /// The widest key bar for `state` that fits in `width` columns after a leading space.
  package static func hints(for state: ViewState, width: Int) -> String {
    hints(from: hintVariants(for: state), width: width)
  }

  private static func hints(from variants: [String], width: Int) -> String {
    let room = width - 1
    return variants.first { DisplayWidth.of($0) <= room }
      ?? DisplayWidth.clip(variants[variants.count - 1], to: room)
  }

  /// Lays out `state` for a terminal of `size`.
  package static func frame(for state: ViewState, size: TerminalSize) -> Frame {
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
    let bodyWidth = min(width - 4, readableWidth)
    var body = bodyRows(state, width: bodyWidth)
    // Spacer rows give way before text: the one above the key bar first, then the one under
    // the title, then the one under the kind, then the blank rows inside the body.
    let fixedRows = 4  // the title, the count, the kind and the key bar
    let spacers = max(0, min(3, size.rows - fixedRows - body.count))
    let room = size.rows - fixedRows - spacers
    body = droppingBlankRows(body, toFit: room)
    var rows: [Row] = [Row([Span(titleText, .title)])]
    if spacers >= 2 { rows.append(Row()) }
    rows += [countRow, Row([Span(fit("  Kind   \(feature.kind.rawValue)", width), .normal)])]
    if spacers >= 3 { rows.append(Row()) }
    rows += window(body, height: room, scroll: state.scroll, width: bodyWidth).map { row in
      Row([Span("  ")] + row.spans)
    }
    rows += Array(repeating: Row(), count: max(0, size.rows - 1 - rows.count))
    rows.append(Row([Span(" " + hints(for: state, width: width), .hint)]))
    return rows
  }

  /// How far the body of `state` can scroll at `size`: 0 when it fits.
  package static func maximumScroll(for state: ViewState, size: TerminalSize) -> Int {
    guard size.rows > 0, size.columns > 0 else { return 0 }
    let (body, room, width) = bodyAndRoom(state, size)
    return maximumScroll(droppingBlankRows(body, toFit: room).count, room: room, width: width)
  }

  /// The body of `state`, the rows it may take at `size`, and its width.
  private static func bodyAndRoom(_ state: ViewState, _ size: TerminalSize) -> ([Row], Int, Int) {
    if size.rows >= fullLayoutSize.rows && size.columns >= fullLayoutSize.columns {
      let width = min(size.columns - 4, readableWidth)
      let body = bodyRows(state, width: width)
      let spacers = max(0, min(3, size.rows - 4 - body.count))
      return (body, size.rows - 4 - spacers, width)
    }
    return (bodyRows(state, width: size.columns), size.rows - 1, size.columns)
  }

  /// `rows` without as many of their blank rows as it takes to fit in `height`, if that can
  /// be done; the last blank rows go first.
  private static func droppingBlankRows(_ rows: [Row], toFit height: Int) -> [Row] {
    var rows = rows
    while rows.count > height, let blank = rows.lastIndex(where: \.spans.isEmpty) {
      rows.remove(at: blank)
    }
    return rows
  }

  /// The part of `rows` that `height` rows show from `scroll` on. When they do not all fit,
  /// the last row says which are shown and how to scroll.
  private static func window(_ rows: [Row], height: Int, scroll: Int, width: Int) -> [Row] {
    guard height > 0 else { return [] }
    guard rows.count > height else { return rows }
    let lines = max(1, height - 1)
    let first = min(max(0, scroll), maximumScroll(rows.count, room: height, width: width))
    let shown = Array(rows[first..<min(rows.count, first + lines)])
    guard height > 1 else { return shown }
    let status = "Ctrl-D/U scroll · lines \(first + 1)–\(first + shown.count) of \(rows.count)"
    return shown + [Row([Span(fit(status, width), .hint)])]
  }

  /// How far `count` rows can scroll in `room` rows, one of which tells the scroll.
  private static func maximumScroll(_ count: Int, room: Int, width: Int) -> Int {
    guard room > 0, count > room else { return 0 }
    return count - max(1, room - 1)
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
    let room = size.rows - 1
    let body = droppingBlankRows(bodyRows(state, width: width), toFit: room)
    return [Row(header)] + window(body, height: room, scroll: state.scroll, width: width)
  }

  /// The part under the count: help, the spinner, the error, the fact, or a prompt; then,
  /// under the fact, why the store could not be used.
  private static func bodyRows(_ state: ViewState, width: Int) -> [Row] {
    guard width > 0 else { return [] }
    var rows = mainRows(state, width: width)
    guard state.prompt == nil, !state.showsHelp else { return rows }
    for message in [state.notice, state.feature.storeMessage].compactMap({ $0 }) {
      rows += [Row()] + wrapped(message, .source, width)
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
      return wrapped("Error: " + message, .error, width)
    }
    if let fact = feature.fact {
      // A server that knows nothing about a number says so in a sentence of its own;
      // the source line makes that plain, so it is not read as a fact.
      let found = fact.found ? "" : " (no fact known about \(fact.number); a stand-in)"
      let position = state.historyPosition.map { " · \($0)" } ?? ""
      let source = fact.sourceLine(now: state.now ?? fact.seen ?? .distantPast)
      return wrapped(fact.text, .normal, width) + [Row()]
        + wrapped("— " + source + found + position, .source, width)
    }
    return wrapped(
      "Press f for a \(feature.kind.rawValue) fact about \(feature.count).", .hint, width)
  }

  /// A fact's text as `y` copies it and `--print` prints it: on one line, sanitized as
  /// every fact's text is when the fact is made.
  package static func plainText(of fact: NumberFact) -> String {
    fact.text
  }

  private static func wrapped(_ text: String, _ role: TextRole, _ width: Int) -> [Row] {
    DisplayWidth.wrap(text, to: width).map { Row([Span($0, role)]) }
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
