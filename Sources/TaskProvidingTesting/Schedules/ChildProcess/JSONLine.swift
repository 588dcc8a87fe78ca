#if canImport(FoundationEssentials)
  import FoundationEssentials
#elseif canImport(Foundation)
  import Foundation
#endif

/// A value as one line of JSON, and back: how the test process and a child exploring for it
/// exchange typed values. JSON escapes every line break a text holds. Without Foundation
/// nothing encodes and nothing decodes, and so no child is asked to explore: the child route
/// runs only where Foundation is.
enum JSONLine {
  static func encode(_ value: some Encodable) -> String? {
    #if canImport(FoundationEssentials) || canImport(Foundation)
      guard let data = try? JSONEncoder().encode(value) else { return nil }
      return String(decoding: data, as: UTF8.self)
    #else
      return nil
    #endif
  }

  static func decode<Value: Decodable>(_ type: Value.Type, from text: some StringProtocol) -> Value?
  {
    #if canImport(FoundationEssentials) || canImport(Foundation)
      return try? JSONDecoder().decode(type, from: Data(text.utf8))
    #else
      return nil
    #endif
  }
}
