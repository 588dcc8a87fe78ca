// The sample "exploring-replay" of ExploringTheTestsYouHave.md, whole, as a reader copies it:
// the pantry's test, run in the one schedule a replay string names.

// sample: exploring-replay
import TaskProvidingTesting
import Testing

@Test(.exploring(replay: "x2:"))
func twoDeliveriesInTheScheduleAFailureNamed() async {
  let pantry = Pantry()
  async let first: Void = pantry.receive("pear")
  async let second: Void = pantry.receive("pear")
  _ = await (first, second)
  #expect(await pantry.count(of: "pear") == 2)
}
// end sample
