import FactClient

extension NumberFactClient {
  /// Facts seen before come from `store`; only numbers never seen from the fact server come
  /// from `computed`. What `--source offline` gives, and what `auto` falls back to.
  ///
  /// A store that fails is skipped: `computed` answers, and `storeFailed` hears of it (the
  /// caller says so once).
  ///
  /// - Parameters:
  ///   - store: Where seen facts are kept.
  ///   - computed: The facts for numbers never seen; by default computed on this machine.
  ///   - storeFailed: Called with each error the store throws.
  package static func seenFirst(
    store: FactStore, else computed: Self = .offline,
    storeFailed: @escaping @Sendable (FactStoreError) -> Void = { _ in }
  ) -> Self {
    @Sendable nonisolated(nonsending) func seen(
      _ numbers: [Int], _ kind: FactKind
    ) async throws -> [Int: NumberFact] {
      do {
        return try await store.seenFacts(numbers, kind)
      } catch let error as FactStoreError {
        storeFailed(error)
        return [:]
      }
    }
    return Self(
      fact: { number, kind in
        if let fact = try await seen([number], kind)[number] { return fact }
        return try await computed.fact(number, kind)
      },
      random: { kind, range in
        let fact = try await computed.random(kind, range)
        return try await seen([fact.number], kind)[fact.number] ?? fact
      },
      facts: { numbers, kind in
        let stored = try await seen(numbers, kind)
        var facts: [NumberFact] = []
        facts.reserveCapacity(numbers.count)
        for number in numbers {
          try Task.checkCancellation()
          if let fact = stored[number] {
            facts.append(fact)
          } else {
            facts.append(try await computed.fact(number, kind))
          }
        }
        return facts
      })
  }
}
