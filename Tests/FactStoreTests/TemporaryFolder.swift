import Foundation

/// A directory of its own for one test, removed when the last reference goes.
final class TemporaryFolder: Sendable {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "numberfact-store-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    // Write permission back first: a test may have taken it away.
    _ = chmod(path, 0o755)
    try? FileManager.default.removeItem(atPath: path)
  }
}
