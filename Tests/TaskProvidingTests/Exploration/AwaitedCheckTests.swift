import TaskProvidingTesting
import Testing

/// A vault whose state lives in an actor, as a real package keeps it.
private actor Vault {
  private(set) var balance = 0
  private let audit = VaultAudit()

  func depositLosingUpdates(_ amount: Int) async {
    let read = balance
    await audit.note()
    balance = read + amount
  }

  func deposit(_ amount: Int) async {
    balance += amount
    await audit.note()
  }

  /// Takes `amount` out, asks `approval`, and puts it back: the balance is low in between.
  func holdWhileApproving(_ amount: Int, approval: ControlledFunction<Int, Bool>) async {
    balance -= amount
    _ = try? await approval.function(amount)
    balance += amount
  }
}

private actor VaultAudit {
  private(set) var notes = 0
  func note() { notes += 1 }
}

/// `invariant` and `atEnd` given `async` checks read an actor's state where it lives, with
/// no mirror of it kept beside.
@Suite struct AwaitedCheckTests {
  @Test func anAsyncFinalCheckReadsTheActorAndFindsALostUpdate() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive()) { exploration in
        let vault = Vault()
        let first = exploration.provider.task { await vault.depositLosingUpdates(1) }
        let second = exploration.provider.task { await vault.depositLosingUpdates(2) }
        await first.value
        await second.value
        exploration.atEnd("both deposits count") { await vault.balance == 3 }
      }
    } matching: {
      $0.description.contains("\"both deposits count\" did not hold at the end")
    }
    #expect(report?.failure != nil)
  }

  @Test func anAsyncFinalCheckAddsNoSchedule() async {
    func explored(checking: Bool) async -> ExplorationReport {
      await explore(.exhaustive()) { exploration in
        let vault = Vault()
        let first = exploration.provider.task { await vault.deposit(1) }
        let second = exploration.provider.task { await vault.deposit(2) }
        await first.value
        await second.value
        if checking { exploration.atEnd("both deposits count") { await vault.balance == 3 } }
      }
    }
    let checked = await explored(checking: true)
    let unchecked = await explored(checking: false)
    #expect(checked.failure == nil)
    #expect(checked.schedules > 1)
    #expect(checked.schedules == unchecked.schedules)
  }

  @Test func anAsyncInvariantReadsTheActorWhileATaskWaitsInsideIt() async {
    var report: ExplorationReport?
    await withKnownIssue {
      report = await explore(.exhaustive()) { exploration in
        let vault = Vault()
        let approval = ControlledFunction<Int, Bool>("approval", answers: { _ in true })
        exploration.invariant("the balance is never negative") { await vault.balance >= 0 }
        let hold = exploration.provider.task {
          await vault.holdWhileApproving(5, approval: approval)
        }
        await hold.value
      }
    } matching: {
      $0.description.contains("\"the balance is never negative\" did not hold")
    }
    #expect(report?.failure?.scheduleNumber == 1)
  }

  @Test func anAsyncCheckThatNeverReturnsDoesNotHold() async {
    await withKnownIssue {
      _ = await explore(.exhaustive()) { exploration in
        exploration.atEnd("answers") {
          await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
          return true
        }
      }
    } matching: {
      $0.description.contains("\"answers\" did not hold at the end")
    }
  }
}
