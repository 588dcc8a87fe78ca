// Task-group results assumed to arrive in the order the children were added: they arrive in
// the order the children finish.

import TaskProvidingTesting

/// Renders thumbnails, one turn each.
actor ThumbnailRenderer {
  func render(_ photo: String) -> String { "thumbnail of \(photo)" }
}

/// Renders an album's thumbnails in parallel. Flawed: collects them in completion order.
struct AlbumLoader: Sendable {
  let renderer: ThumbnailRenderer

  func thumbnails(_ photos: [String]) async -> [String] {
    await withTaskGroup(of: String.self) { group in
      for photo in photos { group.addTask { await renderer.render(photo) } }
      var thumbnails: [String] = []
      for await thumbnail in group { thumbnails.append(thumbnail) }
      return thumbnails
    }
  }
}

/// The fix: each child says which photo it rendered; the results are put back in order.
struct OrderedAlbumLoader: Sendable {
  let renderer: ThumbnailRenderer

  func thumbnails(_ photos: [String]) async -> [String] {
    await withTaskGroup(of: (Int, String).self) { group in
      for (index, photo) in photos.enumerated() {
        group.addTask { (index, await renderer.render(photo)) }
      }
      var thumbnails = [String?](repeating: nil, count: photos.count)
      for await (index, thumbnail) in group { thumbnails[index] = thumbnail }
      return thumbnails.compactMap { $0 }
    }
  }
}

extension CatalogEntry {
  static let groupResultOrder = CatalogEntry(
    name: "task-group results assumed in order",
    summary: "the album shows its thumbnails in the order they finished rendering",
    bug: { exploration in
      let loader = AlbumLoader(renderer: ThumbnailRenderer())
      try await showAlbum(exploration) { await loader.thumbnails($0) }
    },
    fixed: { exploration in
      let loader = OrderedAlbumLoader(renderer: ThumbnailRenderer())
      try await showAlbum(exploration) { await loader.thumbnails($0) }
    })

  @MainActor
  private static func showAlbum(
    _ exploration: Exploration, _ thumbnails: @escaping @Sendable ([String]) async -> [String]
  ) async throws {
    let photos = ["beach", "hill", "lake"]
    let shown = await Task(name: "open the album") { await thumbnails(photos) }.value
    exploration.atEnd("thumbnails are in the album's order") {
      shown == photos.map { "thumbnail of \($0)" }
    }
  }
}
