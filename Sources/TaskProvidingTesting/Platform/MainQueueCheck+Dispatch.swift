#if canImport(Dispatch)
  import Dispatch

  /// Marks the main queue, so code can ask whether it runs there without trapping.
  private let mainQueueMark: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the calling code runs on the main queue, which is the runtime's main executor
  /// where Dispatch is: main-actor work that is not a scope's runs there, beside a scope.
  func runsOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueMark) ?? false
  }
#endif
