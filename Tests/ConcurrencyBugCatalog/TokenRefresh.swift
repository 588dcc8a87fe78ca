// Actor reentrancy: two requests that find the token expired both refresh it, and the
// server, which allows one refresh per token, revokes the first new token.

import TaskProvidingTesting

/// The sign-in server: counts refreshes.
actor AuthServer {
  private(set) var refreshes = 0

  func refresh() -> String {
    refreshes += 1
    return "token \(refreshes)"
  }
}

/// Hands out a valid token, refreshing an expired one. Flawed: the check and the refresh
/// are split by an await, so two callers both refresh.
actor TokenStore {
  private let server: AuthServer
  private var token: String?

  init(server: AuthServer) { self.server = server }

  func validToken() async -> String {
    if let token { return token }
    let fresh = await server.refresh()
    token = fresh
    return fresh
  }
}

/// The fix: the refresh in flight is shared by every caller that needs it.
actor SharedRefreshTokenStore {
  private let server: AuthServer
  private var token: Task<String, Never>?

  init(server: AuthServer) { self.server = server }

  func validToken() async -> String {
    if let token { return await token.value }
    let refresh = Task { await server.refresh() }
    token = refresh
    return await refresh.value
  }
}

extension CatalogEntry {
  static let tokenRefresh = CatalogEntry(
    name: "actor reentrancy: a token refresh",
    summary: "two requests find the token expired and both refresh it",
    bug: { exploration in
      let server = AuthServer()
      let tokens = TokenStore(server: server)
      try await twoRequests(server, exploration) { await tokens.validToken() }
    },
    fixed: { exploration in
      let server = AuthServer()
      let tokens = SharedRefreshTokenStore(server: server)
      try await twoRequests(server, exploration) { await tokens.validToken() }
    })

  @MainActor
  private static func twoRequests(
    _ server: AuthServer, _ exploration: Exploration,
    _ token: @escaping @Sendable () async -> String
  ) async throws {
    let requests = ["profile", "feed"].map { path in
      Task(name: "GET /\(path)") { await token() }
    }
    var used: Set<String> = []
    for request in requests { used.insert(await request.value) }
    let refreshes = await server.refreshes
    exploration.atEnd("the token is refreshed once and shared") {
      refreshes == 1 && used.count == 1
    }
  }
}
