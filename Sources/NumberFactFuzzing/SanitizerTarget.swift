import FactClient
import Foundation
import NumberFactTUI

/// The first byte picks a length limit; the rest is text from a server.
enum SanitizerTarget {
  static func run(_ input: Data) {
    guard let first = input.first else { return }
    let limit = Int(first) % 64 + 1
    let text = input.dropFirst().text
    let clean = FactText.sanitize(text, maximumLength: limit)
    if clean.count > limit { violated(.sanitizer, "longer than its limit \(limit)", text) }
    for scalar in clean.unicodeScalars {
      let value = scalar.value
      if value < 0x20 || (0x7F...0x9F).contains(value) {
        violated(.sanitizer, "a control character U+\(String(value, radix: 16)) is left", text)
      }
    }
    if clean.hasPrefix(" ") || clean.hasSuffix(" ") || clean.contains("  ") {
      violated(.sanitizer, "spaces are not folded", text)
    }
    if FactText.sanitize(clean, maximumLength: limit) != clean {
      violated(.sanitizer, "a second pass changes the text", text)
    }
    // What the view does with it: every wrapped line fits the width, and drawing it keeps
    // its width.
    let width = Int(first) % 40 + 2
    let shown = clean
    if DisplayWidth.of(DisplayWidth.drawable(shown)) != DisplayWidth.of(shown) {
      violated(.sanitizer, "drawing it changes its width", text)
    }
    for line in DisplayWidth.wrap(shown, to: width) where DisplayWidth.of(line) > width {
      violated(.sanitizer, "a wrapped line is wider than \(width)", text)
    }
    if DisplayWidth.of(DisplayWidth.clip(shown, to: width)) > width {
      violated(.sanitizer, "a clipped line is wider than \(width)", text)
    }
  }
}
