import ArgumentParser
import Dependencies
import FactClientLive
import FactStore
import Foundation
import NumberFactConfig
import NumberFactCore
import NumberFactTUI
import TaskProviding

/// The options that choose and configure the fact client.
struct ClientOptions: ParsableArguments {
  // Optional, so that a flag not given falls back to the settings file, then the default.
  @Option(
    name: .customLong("source"),
    help:
      "Where facts come from: auto (server, offline when unreachable), live, offline (default: auto)."
  )
  var sourceOption: SourceOption?

  @Option(
    name: .customLong("base-url"),
    help: "The fact server's base URL (default: \(NumberFactClient.defaultBaseURL.absoluteString))."
  )
  var baseURLOption: String?

  @Option(
    name: .customLong("kind"),
    help: """
      The kind of fact: trivia, math, date or year (default: trivia; in the app, the last one \
      used).
      """)
  var kindOption: FactKind?

  // Unconditional, so `--timeout -1` reaches the range check instead of reading as a
  // missing value followed by an option.
  @Option(
    name: .customLong("timeout"), parsing: .unconditional,
    help: "Seconds to wait for the fact server (default: 5).")
  var timeoutOption: Double?

  /// Where facts come from: the flag, else the settings file, else `auto`.
  var source: SourceOption {
    sourceOption ?? Settings.config.source.flatMap(SourceOption.init(rawValue:)) ?? .auto
  }

  /// The server: the flag, else the settings file, else numbersapi.com.
  var baseURL: String {
    baseURLOption ?? Settings.config.baseURL ?? NumberFactClient.defaultBaseURL.absoluteString
  }

  /// The kind asked for: the flag, else the settings file, else trivia.
  var kind: FactKind { kindOption ?? Settings.config.kind ?? .trivia }

  /// Seconds to wait: the flag, else the settings file, else 5.
  var timeout: Double { timeoutOption ?? Settings.config.timeout ?? 5 }

  func validate() throws {
    if let timeout = timeoutOption, !(timeout.isFinite && timeout > 0 && timeout <= 600) {
      throw ValidationError("--timeout must be a number of seconds above 0 and at most 600.")
    }
    if let baseURL = baseURLOption, !AppConfig.isServerURL(baseURL) {
      throw ValidationError(
        "--base-url must be an http or https URL, such as http://numbersapi.com.")
    }
  }

  /// The client these options choose. Offline facts, in `offline` and in `auto`'s fallback,
  /// come from `store` first, when there is one: what was seen before, then what can be
  /// computed.
  func makeClient(store: FactStore?, warnings: StoreWarnings) -> NumberFactClient {
    let url = URL(string: baseURL) ?? NumberFactClient.defaultBaseURL
    let duration = Duration.milliseconds(Int64((timeout * 1000).rounded()))
    let offline =
      store.map { NumberFactClient.seenFirst(store: $0, storeFailed: warnings.report) }
      ?? .offline
    switch source {
    case .auto: return .auto(baseURL: url, timeout: duration, offline: offline)
    case .live: return .live(baseURL: url, timeout: duration)
    case .offline: return offline
    }
  }
}
