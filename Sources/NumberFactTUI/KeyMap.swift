/// The app's keys: what each key does, read from ``KeyBindings/app``.
package enum KeyMap {
  /// The action for `key`, or `nil` for a key the app ignores.
  package static func action(for key: Key) -> Action? {
    KeyBindings.actions[key]
  }

  /// The keys of each action, as the help screen lists them.
  package static var help: [(keys: String, action: String)] {
    KeyBindings.app.map { ($0.names, $0.summary) }
  }
}
