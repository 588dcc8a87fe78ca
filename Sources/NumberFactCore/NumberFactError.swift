/// Why a fact could not be had. Each case's `description` fits one line of a terminal.
public enum NumberFactError: Error, Equatable, Sendable, CustomStringConvertible {
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

  /// Whether the network, not the server's answer, failed: the cases where an offline fact
  /// is a fair substitute.
  public var isTransportFailure: Bool {
    switch self {
    case .timedOut, .unreachable, .connectionLost: true
    case .httpStatus, .responseTooLarge, .malformedResponse, .invalidURL: false
    }
  }

  public var description: String {
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
    }
  }

  private static let reasons: [Int: String] = [
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
    503: "Service Unavailable", 504: "Gateway Timeout",
  ]

  static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    let tenths = Int64((value * 10).rounded())
    let text = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    return tenths == 10 ? "1 second" : "\(text) seconds"
  }
}
