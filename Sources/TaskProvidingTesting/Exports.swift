// The scheduler and the explorer's engine live in their own module; `import
// TaskProvidingTesting` gives them too: `withSerialScheduler`, `JobOrder`,
// `ExplorationStrategy`, `ExplorationReport`, `ExplorationFailure`.
@_exported import TaskScheduling
