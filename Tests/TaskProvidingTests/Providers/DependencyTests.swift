import Dependencies
import TaskProviding
import TaskProvidingTesting
import Testing

@Suite struct DependencyTests {
  @Test func liveValueIsTheLiveProvider() {
    withDependencies {
      $0.context = .live
    } operation: {
      @Dependency(\.taskProvider) var taskProvider
      #expect(taskProvider is LiveTaskProvider)
    }
  }

  @Test func testValueReportsEverySpawnAndStillRunsIt() async {
    @Dependency(\.taskProvider) var taskProvider
    #expect(taskProvider is UnimplementedTaskProvider)
    await withKnownIssue {
      let value = await taskProvider.task(name: "not-overridden") { 7 }.value
      #expect(value == 7)
      let detached = await taskProvider.detachedTask { 8 }.value
      #expect(detached == 8)
    } matching: { issue in
      issue.description.contains("Unimplemented: @Dependency(\\.taskProvider)")
    }
  }
}
