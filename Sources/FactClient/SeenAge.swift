import Foundation

/// How long ago a stored fact was seen, as a person says it.
package enum SeenAge {
  /// "seen just now", "seen 5 minutes ago", "seen 3 hours ago", "seen yesterday",
  /// "seen 3 days ago", and past 60 days "seen on 2026-09-01". A time in the future (a
  /// clock set back) reads "seen just now".
  package static func phrase(seen: Date, now: Date) -> String {
    let seconds = now.timeIntervalSince(seen)
    guard seconds.isFinite, seconds >= 60 else { return "seen just now" }
    let minutes = Int(seconds / 60)
    if minutes < 60 { return "seen \(count(minutes, "minute")) ago" }
    let hours = minutes / 60
    if hours < 24 { return "seen \(count(hours, "hour")) ago" }
    let days = hours / 24
    if days == 1 { return "seen yesterday" }
    if days <= 60 { return "seen \(days) days ago" }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let parts = calendar.dateComponents([.year, .month, .day], from: seen)
    let (year, month, day) = (parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    let pad = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return "seen on \(year)-\(pad(month))-\(pad(day))"
  }

  private static func count(_ value: Int, _ unit: String) -> String {
    value == 1 ? "1 \(unit)" : "\(value) \(unit)s"
  }
}
