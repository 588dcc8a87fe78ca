extension FactStore {
  /// Where the app keeps its store: `$XDG_DATA_HOME/numberfact/store.sqlite`, or
  /// `~/.local/share/numberfact/store.sqlite` when `XDG_DATA_HOME` is unset, empty or not an
  /// absolute path (as the XDG base directory specification says). `nil` when neither is set.
  package static func defaultPath(environment: [String: String]) -> String? {
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return data + "/numberfact/store.sqlite"
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.local/share/numberfact/store.sqlite"
  }
}
