// The code samples of the toolkit's DocC articles (Sources/*/*.docc), between
// `// sample: NAME` and `// end sample`, so each is compiled and run; DocSampleTests checks
// that the articles quote them exactly.

import ConcurrencyBugCatalog
import ConcurrencyExtras
import Dependencies
import Observation
import SuiteSupport
import TaskProviding
import TaskProvidingTesting
import Testing

@testable import MyApp

// sample: migration-before
@MainActor
final class ProfileLoaderBefore {
  private(set) var name: String?
  let load: @Sendable () async -> String

  init(load: @escaping @Sendable () async -> String) { self.load = load }

  func appeared() {
    Task { self.name = await self.load() }
  }
}
// end sample

// The article "Finding reentrancy bugs": the cache and its fix are the catalog's.

@MainActor @Suite(.recordingTaskProvider)
struct ReportingFailureSamples {
  @Test func aHelperWaitsWhereItIsCalled() async throws {
    let uploader = Uploader(upload: { _ in })
    uploader.uploadButtonTapped("b.txt")
    try await expectUploaded("b.txt", by: uploader)
  }
}

@Test func aLoggingProviderSeesEveryCallForm() async throws {
  let lines = LockIsolated<[String]>([])
  let provider = LoggingTaskProvider(log: { line in lines.withValue { $0.append(line) } })
  await provider.task(name: "a") {}.value
  try await provider.detachedTask(name: "b") { () throws in }.value
  #expect(lines.value.count == 2)
  #expect(lines.value[0].hasPrefix("task a at TaskProvidingTests/ArticleSamples.swift:"))
  #expect(lines.value[1].hasPrefix("detached b at TaskProvidingTests/ArticleSamples.swift:"))
}
