import FactClient
import Foundation
import TOMLKit

/// The settings file, `$XDG_CONFIG_HOME/numberfact/config.toml`: the flags a person would
/// otherwise type every time. Its keys are named as the flags; a flag given overrides its key.
///
/// ```toml
/// source = "auto"            # auto, live or offline
/// base-url = "http://numbersapi.com"
/// kind = "math"              # trivia, math, date or year
/// timeout = 2.5              # seconds, above 0 and at most 600
/// ```
package struct AppConfig: Equatable, Sendable {
  /// `source`: where facts come from, as the flag spells it.
  package var source: String?
  /// `base-url`: the fact server.
  package var baseURL: String?
  /// `kind`: the kind of fact.
  package var kind: FactKind?
  /// `timeout`: seconds to wait for the server.
  package var timeout: Double?
  /// One line per key the file has that this version does not know, naming its line.
  package var warnings: [String] = []

  /// The keys the file may have.
  package static let keys = ["source", "base-url", "kind", "timeout"]

  /// The sources `source` may name.
  package static let sources = ["auto", "live", "offline"]

  /// An empty configuration: every flag at its default.
  package init() {}

  /// Where the file is: `$XDG_CONFIG_HOME/numberfact/config.toml`, or
  /// `~/.config/numberfact/config.toml` when `XDG_CONFIG_HOME` is unset, empty or relative.
  package static func defaultPath(environment: [String: String]) -> String? {
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return config + "/numberfact/config.toml"
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.config/numberfact/config.toml"
  }

  /// Reads the file at `path`; a missing file is an empty configuration.
  ///
  /// - Throws: ``AppConfigError`` naming the file and the line, for a file that cannot be
  ///   read, is not TOML, or gives a key a value it cannot have.
  package static func load(path: String) throws(AppConfigError) -> AppConfig {
    guard FileManager.default.fileExists(atPath: path) else { return AppConfig() }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw AppConfigError(path: path, line: nil, message: "cannot be read")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw AppConfigError(path: path, line: nil, message: "is not UTF-8 text")
    }
    return try parse(text, path: path)
  }

  /// Parses `text`, the contents of the file at `path` (which messages name).
  package static func parse(_ text: String, path: String) throws(AppConfigError) -> AppConfig {
    if let (line, message) = ConfigTextCheck.firstProblem(in: text) {
      throw AppConfigError(path: path, line: line, message: message)
    }
    let table: TOMLTable
    do {
      table = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      throw AppConfigError(
        path: path, line: error.source.begin.line, message: Self.oneLine(error.description))
    } catch {
      throw AppConfigError(path: path, line: nil, message: "is not TOML")
    }
    var config = AppConfig()
    let line = { (key: String) in Self.line(of: key, in: text) }
    for key in table.keys.sorted() {
      guard let value = table[key] else { continue }
      func invalid(_ expected: String) -> AppConfigError {
        AppConfigError(path: path, line: line(key), message: "\(key) must be \(expected)")
      }
      switch key {
      case "source":
        guard let source = value.string, Self.sources.contains(source) else {
          throw invalid("\"auto\", \"live\" or \"offline\"")
        }
        config.source = source
      case "base-url":
        guard let url = value.string, Self.isServerURL(url) else {
          throw invalid("an http or https URL, such as \"http://numbersapi.com\"")
        }
        config.baseURL = url
      case "kind":
        guard let name = value.string, let kind = FactKind(rawValue: name) else {
          throw invalid("\"trivia\", \"math\", \"date\" or \"year\"")
        }
        config.kind = kind
      case "timeout":
        let seconds = value.double ?? value.int.map(Double.init)
        guard let seconds, seconds.isFinite, seconds > 0, seconds <= 600 else {
          throw invalid("a number of seconds above 0 and at most 600")
        }
        config.timeout = seconds
      default:
        let place = line(key).map { "\(path):\($0)" } ?? path
        config.warnings.append(
          "\(place): unknown key '\(key)' ignored (the keys are "
            + Self.keys.joined(separator: ", ") + ")")
      }
    }
    return config
  }

  /// Whether `text` is an http or https URL with a host: what `--base-url` accepts.
  package static func isServerURL(_ text: String) -> Bool {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return false }
    return (scheme == "http" || scheme == "https") && url.host?.isEmpty == false
  }

  /// The line, from 1, where `key` is set at the top level, if it can be found.
  static func line(of key: String, in text: String) -> Int? {
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      var rest = line.drop { $0 == " " || $0 == "\t" }
      for quote in ["\"", "'"] where rest.hasPrefix(quote + key + quote) {
        rest = rest.dropFirst(key.count + 2)
      }
      if rest.hasPrefix(key) { rest = rest.dropFirst(key.count) }
      guard rest.count < line.count else { continue }
      if rest.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("=") { return index + 1 }
    }
    return nil
  }

  private static func oneLine(_ text: String) -> String {
    FactText.sanitize(text.replacingOccurrences(of: "\n", with: " "))
  }
}

/// Why the settings file cannot be used: one line naming the file and, when known, the line.
package struct AppConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file.
  package var path: String
  /// The line, from 1.
  package var line: Int?
  /// What is wrong there.
  package var message: String

  /// An error in the file at `path`.
  package init(path: String, line: Int?, message: String) {
    self.path = path
    self.line = line
    self.message = message
  }

  /// `/home/a/.config/numberfact/config.toml:3: timeout must be a number of seconds …`
  package var description: String {
    "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
  }
}
