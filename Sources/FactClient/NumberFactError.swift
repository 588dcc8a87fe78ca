/// Why a fact could not be had. Each case's `description` fits one line of a terminal.
package enum NumberFactError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The server answered with a status other than 200.
  case httpStatus(Int)
  /// No complete answer arrived within the timeout.
  case timedOut(after: Duration)
  /// The host could not be found or connected to.
  case unreachable(host: String)
  /// The connection broke before the answer was complete.
  case connectionLost
  /// The answer was larger than the client accepts; it was not read further.
  case responseTooLarge(limit: Int)
  /// The answer arrived but is not a fact: not JSON, no text, empty.
  case malformedResponse(reason: String)
  /// The request URL could not be formed from the base URL.
  case invalidURL(String)
  /// The host was reached, but the TLS handshake with it failed: a plain-HTTP server behind
  /// an `https` URL, an expired or untrusted certificate.
  case tlsFailed(host: String)
  /// This machine has no route to the network, or cannot resolve names at all.
  case noNetwork

  /// Whether the network, not the server's answer, failed: the cases where an offline fact
  /// is a fair substitute.
  package var isTransportFailure: Bool {
    switch self {
    case .timedOut, .unreachable, .connectionLost, .tlsFailed, .noNetwork: true
    case .httpStatus, .responseTooLarge, .malformedResponse, .invalidURL: false
    }
  }

  /// Whether the server said it failed (HTTP 5xx): it is down or overloaded, and an offline
  /// fact is as fair a substitute as when it cannot be reached.
  package var isServerFailure: Bool {
    if case .httpStatus(let status) = self { return (500...599).contains(status) }
    return false
  }

  /// Whether a falling-back client answers offline for this failure: the network failed, or
  /// the server said it did. A 4xx or a malformed answer is thrown instead.
  package var fallsBack: Bool { isTransportFailure || isServerFailure }

  /// Why an offline fact stands in for a live one, as a phrase naming `host`:
  /// "numbersapi.com did not answer in 5 s".
  package func offlineReason(host: String) -> String {
    switch self {
    case .timedOut(let after): "\(host) did not answer in \(Self.short(after))"
    case .unreachable: "cannot reach \(host)"
    case .connectionLost: "the connection to \(host) was lost"
    case .tlsFailed: "TLS handshake with \(host) failed"
    case .noNetwork: "no network"
    case .httpStatus(let status): "\(host) answered HTTP \(status)"
    case .responseTooLarge: "\(host) sent too large an answer"
    case .malformedResponse: "\(host) sent something that is not a fact"
    case .invalidURL: "no request URL for \(host)"
    }
  }

  package var description: String {
    switch self {
    case .httpStatus(let status):
      let reason = Self.reasons[status].map { " (\($0))" } ?? ""
      return "The fact server answered HTTP \(status)\(reason)."
    case .timedOut(let timeout):
      return "No answer from the fact server within \(Self.format(timeout))."
    case .unreachable(let host):
      return "Cannot reach \(host.isEmpty ? "the fact server" : host)."
    case .connectionLost:
      return "The connection to the fact server was lost."
    case .responseTooLarge(let limit):
      return "The fact server's answer was larger than \(limit / 1024) KiB."
    case .malformedResponse(let reason):
      return "The fact server's answer was not a fact: \(reason)."
    case .invalidURL(let url):
      return "Cannot form a request URL from \(url)."
    case .tlsFailed(let host):
      return "TLS handshake with \(host) failed."
    case .noNetwork:
      return "No network: this machine cannot reach the fact server."
    }
  }

  private static let reasons: [Int: String] = [
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
    503: "Service Unavailable", 504: "Gateway Timeout",
  ]

  /// "5 s", "1.5 s", "0.001 s": a duration in a phrase, as given.
  static func short(_ duration: Duration) -> String {
    "\(number(duration)) s"
  }

  /// "12 s": what is left of a back-off, rounded up to whole seconds, never "0 s".
  static func wholeSeconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let whole = seconds + (attoseconds > 0 ? 1 : 0)
    return "\(max(1, whole)) s"
  }

  /// "5 seconds", "1 second", "0.001 seconds".
  static func format(_ duration: Duration) -> String {
    let text = number(duration)
    return text == "1" ? "1 second" : "\(text) seconds"
  }

  /// Seconds to the millisecond, without trailing zeros: timeouts are given in seconds with
  /// up to three decimals, and are printed as they were given.
  private static func number(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds =
      seconds.multipliedReportingOverflow(by: 1000).partialValue
      &+ Int64((Double(attoseconds) / 1e15).rounded())
    let whole = milliseconds / 1000
    var fraction = String(abs(milliseconds % 1000))
    guard fraction != "0" else { return "\(whole)" }
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole).\(fraction)"
  }
}

extension NumberFactError {
  /// The one line a person reads for a failed request, whatever the client threw: the app's
  /// error line and the command line's both say it.
  package static func message(for error: any Error) -> String {
    let text =
      switch error {
      case let error as NumberFactError: error.description
      case let error as UnimplementedFactError: error.description
      default: "Could not get a fact: \(String(describing: error))"
      }
    return FactText.sanitize(text)
  }
}
