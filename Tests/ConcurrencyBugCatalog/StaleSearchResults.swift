// A stale response overwrites a newer one: each keystroke searches in its own task, and the
// answer for an earlier query can arrive last.

import TaskProvidingTesting

/// Where the search service looks longer queries up.
actor SearchIndex {
  func look(up query: String) -> [String] { ["results for \(query)"] }
}

/// The search service, which answers each query in its own time, off the main actor.
struct SearchServer: Sendable {
  let index = SearchIndex()

  func search(_ query: String) async -> [String] {
    // A longer query takes one more round trip, to the index.
    guard query.count > 2 else { return ["results for \(query)"] }
    return await index.look(up: query)
  }
}

/// Search as you type. Flawed: whichever answer comes last is shown.
@MainActor
final class SearchField {
  private let server: SearchServer
  private(set) var query = ""
  private(set) var results: [String] = []
  private(set) var searches: [Task<Void, Never>] = []

  init(server: SearchServer) { self.server = server }

  func type(_ text: String) {
    query = text
    searches.append(
      Task(name: "search \(text)") {
        results = await server.search(text)
      })
  }
}

/// The fix: an answer is shown only if it is for the query still typed.
@MainActor
final class CurrentQuerySearchField {
  private let server: SearchServer
  private(set) var query = ""
  private(set) var results: [String] = []
  private(set) var searches: [Task<Void, Never>] = []

  init(server: SearchServer) { self.server = server }

  func type(_ text: String) {
    query = text
    searches.append(
      Task(name: "search \(text)") {
        let found = await server.search(text)
        guard query == text else { return }
        results = found
      })
  }
}

extension CatalogEntry {
  static let staleSearchResults = CatalogEntry(
    name: "a stale response overwrites a newer one",
    summary: "the answer for \"sw\" comes after the one for \"swift\" and replaces it",
    bug: { exploration in
      let field = SearchField(server: SearchServer())
      try await typeSwift(
        exploration, { field.type($0) }, searches: { field.searches },
        results: { field.results })
    },
    fixed: { exploration in
      let field = CurrentQuerySearchField(server: SearchServer())
      try await typeSwift(
        exploration, { field.type($0) }, searches: { field.searches },
        results: { field.results })
    })

  @MainActor
  private static func typeSwift(
    _ exploration: Exploration, _ type: @escaping @MainActor (String) -> Void,
    searches: @escaping @MainActor () -> [Task<Void, Never>],
    results: @escaping @MainActor () -> [String]
  ) async throws {
    type("sw")
    type("swift")
    for search in searches() { await search.value }
    exploration.atEnd("the results are for the query typed last") {
      results() == ["results for swift"]
    }
  }
}
