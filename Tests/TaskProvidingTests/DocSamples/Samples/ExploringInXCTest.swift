// The sample "exploring-xctest" of ExploringTheTestsYouHave.md, whole, as a reader copies it:
// the pantry's test, written for XCTest, explored from inside the test method.

// sample: exploring-xctest
import TaskProvidingTesting
import XCTest

final class PantryXCTests: ExploringTestCase {
  func testTwoDeliveriesBothCount() async {
    await exploring {
      let pantry = Pantry()
      async let first: Void = pantry.receive("plum")
      async let second: Void = pantry.receive("plum")
      _ = await (first, second)
      let count = await pantry.count(of: "plum")
      XCTAssertEqual(count, 2)
    }
  }
}
// end sample
