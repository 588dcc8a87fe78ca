// Repeated on purpose (docs/architecture.md): a wire format lists every field it carries.

/// A report as the test process and a child exploring for it hand each other one: the child
/// its exploration's report, the test process the reports of the explorations its test ran
/// before the one the child is to run. Every field of the report but its strategy, which
/// both sides know.
struct ReportPayload: Codable, Equatable {
  struct Failure: Codable, Equatable {
    let scheduleNumber: Int
    let replay: String
    let reason: String
    let departures: Int
    let steps: [String]
    let nondeterminism: String?
    let scenarioThrew: Bool
  }

  let schedules: Int
  let isComplete: Bool
  let boundLeftSchedulesOut: Bool
  let bound: Int?
  let nondeterminism: String?
  let outsideWork: String?
  let failure: Failure?

  init(_ report: ExplorationReport) {
    schedules = report.schedules
    isComplete = report.isComplete
    boundLeftSchedulesOut = report.boundLeftSchedulesOut
    bound = report.bound
    nondeterminism = report.nondeterminism
    outsideWork = report.outsideWork
    failure = report.failure.map {
      Failure(
        scheduleNumber: $0.scheduleNumber, replay: $0.replay, reason: $0.reason,
        departures: $0.departures, steps: $0.steps, nondeterminism: $0.nondeterminism,
        scenarioThrew: $0.scenarioThrew)
    }
  }

  /// The report, of an exploration by `strategy`.
  func report(strategy: ExplorationStrategy) -> ExplorationReport {
    ExplorationReport(
      strategy: strategy, schedules: schedules, isComplete: isComplete,
      boundLeftSchedulesOut: boundLeftSchedulesOut, bound: bound,
      failure: failure.map {
        ExplorationFailure(
          strategy: strategy, scheduleNumber: $0.scheduleNumber, replay: $0.replay,
          steps: $0.steps, reason: $0.reason, departures: $0.departures,
          nondeterminism: $0.nondeterminism, scenarioThrew: $0.scenarioThrew)
      },
      nondeterminism: nondeterminism, outsideWork: outsideWork)
  }
}
