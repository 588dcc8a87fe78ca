// The sample "reentrancy-fixed-test" of FindingReentrancyBugs.md, whole, as a reader copies it.

// sample: reentrancy-fixed-test
import TaskProvidingTesting
import Testing

@MainActor @Suite struct SharedDownloadImageCacheTests {
  @Test func twoViewsOfOneImageShareItsDownload() async {
    let report = await explore(.exhaustive()) { exploration in
      let server = ImageServer()
      let cache = SharedDownloadImageCache(server: server)
      let views = (1...2).map { view in
        exploration.provider.task(name: "view \(view) shows a.png") { await cache.image("a.png") }
      }
      for view in views { _ = await view.value }
      let downloads = await server.downloads
      exploration.atEnd("a.png is downloaded once") { downloads == ["a.png"] }
    }
    #expect(report.failure == nil)
  }
}
// end sample
