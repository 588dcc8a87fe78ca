// Check, await, act across actors: a checkout checks the stock on one actor, then places the
// order and takes the item on others; two buyers of the last item both pass the check.

import TaskProvidingTesting

/// The warehouse's stock.
actor Inventory {
  private(set) var stock: [String: Int]

  init(stock: [String: Int]) { self.stock = stock }

  func count(of item: String) -> Int { stock[item, default: 0] }
  func remove(_ item: String) { stock[item, default: 0] -= 1 }

  /// Takes one if there is one: the check and the act in one turn of the actor.
  func reserve(_ item: String) -> Bool {
    guard stock[item, default: 0] > 0 else { return false }
    stock[item, default: 0] -= 1
    return true
  }
}

/// The orders placed.
actor OrderBook {
  private(set) var orders: [String] = []
  func place(_ item: String) { orders.append(item) }
}

/// Sells an item if it is in stock. Flawed: the stock may change between the check and the
/// removal, each an await on the inventory.
struct Checkout: Sendable {
  let inventory: Inventory
  let orders: OrderBook

  func buy(_ item: String) async {
    guard await inventory.count(of: item) > 0 else { return }
    await orders.place(item)
    await inventory.remove(item)
  }
}

/// The fix: reserve first, in one call, then place the order.
struct ReservingCheckout: Sendable {
  let inventory: Inventory
  let orders: OrderBook

  func buy(_ item: String) async {
    guard await inventory.reserve(item) else { return }
    await orders.place(item)
  }
}

extension CatalogEntry {
  static let checkThenAct = CatalogEntry(
    name: "check, await, act across actors",
    summary: "two buyers both see the last lamp in stock, so it is sold twice",
    bug: { exploration in
      let inventory = Inventory(stock: ["lamp": 1])
      let orders = OrderBook()
      let checkout = Checkout(inventory: inventory, orders: orders)
      try await twoBuyers(inventory, orders, exploration) { await checkout.buy($0) }
    },
    fixed: { exploration in
      let inventory = Inventory(stock: ["lamp": 1])
      let orders = OrderBook()
      let checkout = ReservingCheckout(inventory: inventory, orders: orders)
      try await twoBuyers(inventory, orders, exploration) { await checkout.buy($0) }
    })

  @MainActor
  private static func twoBuyers(
    _ inventory: Inventory, _ orders: OrderBook, _ exploration: Exploration,
    _ buy: @escaping @Sendable (String) async -> Void
  ) async throws {
    let buyers = ["ana", "bo"].map { buyer in
      Task(name: "\(buyer) buys the lamp") { await buy("lamp") }
    }
    for buyer in buyers { await buyer.value }
    let sold = await orders.orders.count
    let left = await inventory.count(of: "lamp")
    exploration.atEnd("the one lamp is sold once") { sold == 1 && left == 0 }
  }
}
