// The sample "exploring-a-scenario" of README.md, whole, as a reader copies it: a scenario
// written for the explorer, its tasks spawned through the exploration's provider, its final
// check reading the actor.

// sample: exploring-a-scenario
import TaskProvidingTesting
import Testing

@Test func twoDeliveriesCountInEveryOrder() async {
  let report = await explore(.exhaustive()) { exploration in
    let pantry = Pantry()
    let first = exploration.provider.task { await pantry.receive("fig") }
    let second = exploration.provider.task { await pantry.receive("fig") }
    await first.value
    await second.value
    exploration.atEnd("both deliveries count") { await pantry.count(of: "fig") == 2 }
  }
  #expect(report.failure == nil)
}
// end sample
