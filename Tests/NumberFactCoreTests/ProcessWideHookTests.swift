import Testing

/// The one parent of every test that installs a process-wide runtime hook
/// (`withSerialScheduler`, the `.serialScheduler` trait, `withMainSerialExecutor`). Two such
/// tests at once would switch the hooks under each other, so they run one at a time; the
/// rest of the suite runs in parallel beside them.
@Suite(.serialized) struct ProcessWideHookTests {}
