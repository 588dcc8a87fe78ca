#if SwiftDependencies
  import Dependencies

  extension DependencyValues {
    /// The provider that production code spawns its unstructured tasks through.
    ///
    /// Live value: ``LiveTaskProvider``. Test value: ``UnimplementedTaskProvider``, which
    /// reports an issue for each spawn and then runs the task live. A test that spawns
    /// without choosing how to control the task is exactly where flakiness starts, so it
    /// must say what it wants: a `RecordingTaskProvider` to await tasks, a
    /// `ManualTaskProvider` to step them, or `LiveTaskProvider()` to opt out on purpose.
    public var taskProvider: any TaskProvider {
      get { self[TaskProviderKey.self] }
      set { self[TaskProviderKey.self] = newValue }
    }
  }

  private enum TaskProviderKey: DependencyKey {
    static let liveValue: any TaskProvider = LiveTaskProvider()
    static let testValue: any TaskProvider = UnimplementedTaskProvider()
  }
#endif
