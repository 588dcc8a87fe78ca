/// Why the store could not be used. Each `description` is one line a person can act on.
package enum FactStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file exists but is not a database this version can read; it is left as it is.
  case unreadable(path: String, reason: String)
  /// The directory or the file cannot be written: read-only, or its permissions.
  case readOnly(path: String)
  /// The directory could not be created.
  case cannotCreateDirectory(path: String, reason: String)
  /// The disk is full; nothing more is kept until there is room.
  case diskFull(path: String)
  /// Another process held the store for longer than the wait allows.
  case busy(path: String)
  /// Anything else SQLite reported.
  case failed(path: String, reason: String)

  package var description: String {
    switch self {
    case .unreadable(let path, let reason):
      "The store \(path) cannot be read (\(reason)); facts are not remembered this time. "
        + "The file is left as it is."
    case .readOnly(let path):
      "The store \(path) cannot be written; facts are not remembered this time."
    case .cannotCreateDirectory(let path, let reason):
      "Cannot create \(path) for the store (\(reason)); facts are not remembered this time."
    case .diskFull(let path):
      "The disk holding \(path) is full; facts are not remembered until there is room."
    case .busy(let path):
      "The store \(path) is busy in another process; this fact was not remembered."
    case .failed(let path, let reason):
      "The store \(path) failed: \(reason)."
    }
  }
}
