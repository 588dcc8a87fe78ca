// The sample "wallet-exploration" of testing-async.md and ExploringSchedules.md, whole, as a reader copies it.

// sample: wallet-exploration
import ConcurrencyExtras
import TaskProvidingTesting
import Testing

@MainActor @Suite struct WalletTests {
  @Test func twoPaymentsCanSpendTheSameMoney() async {
    var report: ExplorationReport?
    await withKnownIssue("the wallet checks, then acts") {
      report = await explore(.exhaustive()) { exploration in
        let ledger = LockIsolated(100)  // what the remote ledger holds
        let read = ControlledFunction<Void, Int>("balance read", answers: { ledger.value })
        let write = ControlledFunction<Int, Void>(
          "balance write", answers: { ledger.setValue($0) })
        let wallet = Wallet(
          taskProvider: exploration.provider, balance: { try await read.function(()) },
          setBalance: write.function)
        exploration.action("pay 60") { wallet.pay(60) }
        exploration.action("pay 60") { wallet.pay(60) }
        exploration.atEnd("never pays out more than the account held") {
          wallet.paid.reduce(0, +) <= 100
        }
      }
    }
    #expect(report?.failure?.reason.contains("never pays out more") == true)
  }
}
// end sample
