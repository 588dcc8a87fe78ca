import Foundation
import NumberFactConfig

/// The whole input is a config file.
enum ConfigTarget {
  static let path = "/home/someone/.config/numberfact/config.toml"

  static func run(_ input: Data) {
    let text = input.text
    do {
      let config = try AppConfig.parse(text, path: path)
      if let timeout = config.timeout, !(timeout.isFinite && timeout > 0) {
        violated(.config, "a timeout of \(timeout) accepted", text)
      }
      if let source = config.source, !AppConfig.sources.contains(source) {
        violated(.config, "a source of \(source) accepted", text)
      }
    } catch {
      if !error.description.contains(path) {
        violated(.config, "a message that does not name the file", text)
      }
      if error.description.contains("\n") {
        violated(.config, "a message of more than one line", text)
      }
    }
  }
}
