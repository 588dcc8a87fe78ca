// Out-of-order writes from separate tasks: each change of a setting saves in a background
// task of its own, and the tasks may run in any order, so the older value can be saved last.

import TaskProvidingTesting

/// The disk the settings are saved on.
actor SettingsDisk {
  private(set) var saved: String?
  func write(_ value: String) { saved = value }
}

/// A setting that saves on every change, off the main actor. Flawed: each save is a
/// separate detached task, and nothing orders them.
@MainActor
final class ThemeSetting {
  private let disk: SettingsDisk
  private(set) var saves: [Task<Void, Never>] = []

  init(disk: SettingsDisk) { self.disk = disk }

  func choose(_ theme: String) {
    let disk = disk
    saves.append(Task.detached(name: "save \(theme)") { await disk.write(theme) })
  }
}

/// The fix: each save waits for the one before it, so saves land in the order of changes.
@MainActor
final class OrderedThemeSetting {
  private let disk: SettingsDisk
  private(set) var saves: [Task<Void, Never>] = []

  init(disk: SettingsDisk) { self.disk = disk }

  func choose(_ theme: String) {
    let disk = disk
    let previous = saves.last
    saves.append(
      Task.detached(name: "save \(theme)") {
        await previous?.value
        await disk.write(theme)
      })
  }
}

extension CatalogEntry {
  static let outOfOrderWrites = CatalogEntry(
    name: "out-of-order writes from separate tasks",
    summary: "the theme chosen first is saved last, so the disk keeps the old choice",
    bug: { exploration in
      let disk = SettingsDisk()
      let setting = ThemeSetting(disk: disk)
      try await chooseTwice(disk, exploration, { setting.choose($0) }, saves: { setting.saves })
    },
    fixed: { exploration in
      let disk = SettingsDisk()
      let setting = OrderedThemeSetting(disk: disk)
      try await chooseTwice(disk, exploration, { setting.choose($0) }, saves: { setting.saves })
    })

  @MainActor
  private static func chooseTwice(
    _ disk: SettingsDisk, _ exploration: Exploration,
    _ choose: @escaping @MainActor (String) -> Void,
    saves: @escaping @MainActor () -> [Task<Void, Never>]
  ) async throws {
    choose("dark")
    choose("light")
    for save in saves() { await save.value }
    let saved = await disk.saved
    exploration.atEnd("the last theme chosen is the one saved") { saved == "light" }
  }
}
