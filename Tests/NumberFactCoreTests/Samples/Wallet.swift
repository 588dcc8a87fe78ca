// The sample "wallet" of testing-async.md and ExploringSchedules.md, whole, as a reader copies it.

// sample: wallet
import TaskProviding

/// Pays from an account kept by a remote ledger: read the balance, then write the new one.
@MainActor
final class Wallet {
  private let taskProvider: any TaskProvider
  private let balance: @Sendable () async throws -> Int
  private let setBalance: @Sendable (Int) async throws -> Void
  private(set) var paid: [Int] = []

  init(
    taskProvider: any TaskProvider,
    balance: @escaping @Sendable () async throws -> Int,
    setBalance: @escaping @Sendable (Int) async throws -> Void
  ) {
    self.taskProvider = taskProvider
    self.balance = balance
    self.setBalance = setBalance
  }

  func pay(_ amount: Int) {
    taskProvider.task(name: "pay \(amount)") {
      // Check, then act: another payment may read the same balance in between.
      guard let current = try? await self.balance(), current >= amount else { return }
      guard (try? await self.setBalance(current - amount)) != nil else { return }
      self.paid.append(amount)
    }
  }
}
// end sample
