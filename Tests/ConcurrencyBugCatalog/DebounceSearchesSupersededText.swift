// A debounce that swallows its own cancellation: the sleep is `try?`'d, so a keystroke that
// cancels the pending search only cuts the wait short, and the search for the text typed
// over goes out at once. The fix must also look again once the sleep has ended: a keystroke
// can cancel the search after its wait ended and before it ran (the explorer found that in
// a first fix that only caught the sleep's error). Written with a task's plain sleep, on the
// scope's virtual time.

import TaskProvidingTesting

/// Searches 300 ms after the last keystroke. Flawed: a cancelled wait still searches.
@MainActor final class DebouncedField {
  private(set) var searches: [String] = []
  /// Texts typed over before their search went out: none of them may be searched.
  private(set) var superseded: Set<String> = []
  private var pending: (text: String, task: Task<Void, Never>)?
  /// Whether a cancellation, during the wait or after it, ends the search (the fix).
  private let honoursCancellation: Bool

  init(honoursCancellation: Bool) { self.honoursCancellation = honoursCancellation }

  func type(_ text: String) {
    if let pending {
      superseded.insert(pending.text)
      pending.task.cancel()
    }
    let honoursCancellation = honoursCancellation
    let task = Task {
      if honoursCancellation {
        do { try await Task.sleep(for: .milliseconds(300)) } catch { return }  // virtual time
        guard !Task.isCancelled else { return }
      } else {
        try? await Task.sleep(for: .milliseconds(300))  // virtual time
      }
      searches.append(text)
      pending = nil
    }
    pending = (text, task)
  }
}

extension CatalogEntry {
  static let debounceSearchesSupersededText = CatalogEntry(
    name: "a debounce that swallows its cancellation",
    summary: "a keystroke cuts the pending wait short and the typed-over text is searched",
    bug: { exploration in typeTwice(exploration, DebouncedField(honoursCancellation: false)) },
    fixed: { exploration in typeTwice(exploration, DebouncedField(honoursCancellation: true)) })

  /// Two keystrokes as actions: the second may come before the first wait ends or after.
  @MainActor
  private static func typeTwice(_ exploration: Exploration, _ field: DebouncedField) {
    exploration.action("type s") { field.type("s") }
    exploration.action("type swift") { field.type("swift") }
    exploration.atEnd("no typed-over text is searched") {
      field.superseded.isDisjoint(with: field.searches)
    }
  }
}
