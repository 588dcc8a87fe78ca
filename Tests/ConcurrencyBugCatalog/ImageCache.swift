// Actor reentrancy: a cache that downloads the same image twice, because two callers both
// miss before either stores (the example of the Swift book's actors chapter). The DocC
// article "Finding reentrancy bugs" quotes a copy of these types (TaskProvidingTests).

import TaskProvidingTesting

/// The network, as far as the cache can tell: it counts downloads.
public actor ImageServer {
  /// Every download so far, in order.
  public private(set) var downloads: [String] = []

  /// A server with nothing downloaded yet.
  public init() {}

  /// The image at `url`, downloaded.
  public func download(_ url: String) -> String {
    downloads.append(url)
    return "pixels of \(url)"
  }
}

/// Downloads each image once and keeps it.
public actor ImageCache {
  private let server: ImageServer
  private var images: [String: String] = [:]

  /// A cache in front of `server`.
  public init(server: ImageServer) { self.server = server }

  /// The image at `url`: kept, or downloaded now.
  public func image(_ url: String) async -> String {
    if let image = images[url] { return image }
    let image = await server.download(url)
    images[url] = image
    return image
  }
}

/// Downloads each image once and keeps it, sharing a download in flight with every caller
/// that asks meanwhile.
public actor SharedDownloadImageCache {
  private let server: ImageServer
  private var images: [String: Task<String, Never>] = [:]

  /// A cache in front of `server`.
  public init(server: ImageServer) { self.server = server }

  /// The image at `url`: kept, downloading, or downloaded now.
  public func image(_ url: String) async -> String {
    if let download = images[url] { return await download.value }
    let download = Task { await server.download(url) }
    images[url] = download  // before the await: the next caller finds it
    return await download.value
  }
}

extension CatalogEntry {
  static let imageCache = CatalogEntry(
    name: "actor reentrancy: an image cache",
    summary: "two views both miss the cache before either stores, so a.png downloads twice",
    bug: { exploration in
      let server = ImageServer()
      let cache = ImageCache(server: server)
      try await showTwice(server, exploration) { await cache.image($0) }
    },
    fixed: { exploration in
      let server = ImageServer()
      let cache = SharedDownloadImageCache(server: server)
      try await showTwice(server, exploration) { await cache.image($0) }
    })

  @MainActor
  private static func showTwice(
    _ server: ImageServer, _ exploration: Exploration,
    _ image: @escaping @Sendable (String) async -> String
  ) async throws {
    let views = (1...2).map { view in
      Task(name: "view \(view) shows a.png") { await image("a.png") }
    }
    for view in views { _ = await view.value }
    let downloads = await server.downloads
    exploration.atEnd("a.png is downloaded once") { downloads == ["a.png"] }
  }
}
