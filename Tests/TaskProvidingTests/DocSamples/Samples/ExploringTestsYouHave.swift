// The sample "exploring-pantry" of ExploringTheTestsYouHave.md and README.md, whole, as a
// reader copies it: a test written with no thought of the explorer, explored unchanged.

// sample: exploring-pantry
import TaskProvidingTesting
import Testing

actor Pantry {
  private var stock: [String: Int] = [:]

  func receive(_ item: String) {
    stock[item, default: 0] += 1
  }

  func count(of item: String) -> Int {
    stock[item, default: 0]
  }
}

@Suite(.exploring())
struct PantryTests {
  @Test func twoDeliveriesBothCount() async {
    let pantry = Pantry()
    async let first: Void = pantry.receive("apple")
    async let second: Void = pantry.receive("apple")
    _ = await (first, second)
    #expect(await pantry.count(of: "apple") == 2)
  }
}
// end sample
