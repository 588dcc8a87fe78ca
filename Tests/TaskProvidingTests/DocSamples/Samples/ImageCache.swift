// The samples "reentrancy-server", "reentrancy-cache" and "reentrancy-fix" of
// FindingReentrancyBugs.md, whole, as a reader copies them: the catalog's entry keeps public
// copies of these types in its own module, and the article's tests must build without it.

// sample: reentrancy-server
/// The network, as far as the cache can tell: it counts downloads.
actor ImageServer {
  /// Every download so far, in order.
  private(set) var downloads: [String] = []

  /// A server with nothing downloaded yet.
  init() {}

  /// The image at `url`, downloaded.
  func download(_ url: String) -> String {
    downloads.append(url)
    return "pixels of \(url)"
  }
}
// end sample

// sample: reentrancy-cache
/// Downloads each image once and keeps it.
actor ImageCache {
  private let server: ImageServer
  private var images: [String: String] = [:]

  /// A cache in front of `server`.
  init(server: ImageServer) { self.server = server }

  /// The image at `url`: kept, or downloaded now.
  func image(_ url: String) async -> String {
    if let image = images[url] { return image }
    let image = await server.download(url)
    images[url] = image
    return image
  }
}
// end sample

// sample: reentrancy-fix
/// Downloads each image once and keeps it, sharing a download in flight with every caller
/// that asks meanwhile.
actor SharedDownloadImageCache {
  private let server: ImageServer
  private var images: [String: Task<String, Never>] = [:]

  /// A cache in front of `server`.
  init(server: ImageServer) { self.server = server }

  /// The image at `url`: kept, downloading, or downloaded now.
  func image(_ url: String) async -> String {
    if let download = images[url] { return await download.value }
    let download = Task { await server.download(url) }
    images[url] = download  // before the await: the next caller finds it
    return await download.value
  }
}
// end sample
