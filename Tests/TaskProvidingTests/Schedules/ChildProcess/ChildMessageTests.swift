import Testing

@testable import TaskProvidingTesting

/// The test process and a child exploring for it exchange typed values: each message and the
/// request survive their encoding whole, and what the test process concludes of a child's end
/// rests on those values, not on the wording of a message the child printed.
struct ChildMessageTests {
  @Test func everyMessageSurvivesItsLine() {
    let report = ReportPayload(
      ExplorationReport(
        strategy: .exhaustive(), schedules: 3, isComplete: false,
        failure: ExplorationFailure(
          strategy: .exhaustive(), scheduleNumber: 2, replay: "x2:1.1",
          steps: ["task 'a' starts", "then nothing can run:\nline two"],
          reason: "a reason with\na line break and \"quotes\"", departures: 1,
          scenarioThrew: true)))
    let messages: [ChildMessage] = [
      .scheduleBegins, .departed(decision: 4, option: 2), .candidateBegins(index: 7),
      .candidatesRan, .report(report), .steps(["one", "two\nthree"]),
      .jobNeverReturned("A job of an exploration did not return"),
    ]
    for message in messages {
      let line = message.line
      #expect(!line.contains("\n"), "\(line)")
      #expect(ChildMessage(line: line[...]) == message)
    }
    // Whether the scenario threw reaches the test process as a value, not as wording.
    let read = ChildMessage(line: ChildMessage.report(report).line[...])
    guard case .report(let payload)? = read else {
      Issue.record("the report did not survive its line: \(String(describing: read))")
      return
    }
    #expect(payload.report(strategy: .exhaustive()).failure?.scenarioThrew == true)
    // A line cut short as the child died is no message.
    let cut = ChildMessage.report(report).line.dropLast(5)
    #expect(ChildMessage(line: cut) == nil)
  }

  @Test func aJobThatNeverReturnedIsKnownByItsMessage() {
    let child = ChildProcess(
      messages: [.scheduleBegins, .departed(decision: 1, option: 1), .jobNeverReturned("stuck")],
      standardError: "whatever the process printed, in whatever words", ending: .signaled(4))
    let death = child.death
    #expect(death.isWatchdog)
    #expect(death.reason.hasPrefix("stuck; "))
    #expect(child.departuresOfLastSchedule() == [ReplayString.Departure(decision: 1, option: 1)])
  }

  @Test func shrinkingCandidatesAreReadFromTheirMessages() {
    let child = ChildProcess(
      messages: [
        .candidateBegins(index: 0), .scheduleBegins, .departed(decision: 2, option: 1),
        .candidateBegins(index: 1), .scheduleBegins, .departed(decision: 3, option: 1),
      ],
      standardError: "", ending: .signaled(6))
    #expect(child.candidates == [0, 1])
    #expect(
      child.departuresOfLastSchedule(afterCandidate: 0)
        == [ReplayString.Departure(decision: 3, option: 1)])
    #expect(child.schedules == 2)
  }

  @Test func aRequestSurvivesItsFile() throws {
    let call = ChildCall(
      test: "Module.Suite/test()", site: "Module/File.swift:12:5", occurrence: 1,
      earlier: [
        ReportPayload(
          ExplorationReport(strategy: .exhaustive(), schedules: 9, isComplete: true, failure: nil))
      ])
    let request = ChildRequest(
      output: "/tmp/out",
      call: call,
      mode: .shrink(schedule: [ReplayString.Departure(decision: 2, option: 1)], start: 3))
    let text = try #require(request.encoded)
    let decoded = try #require(ChildRequest(decoding: text))
    #expect(decoded.output == "/tmp/out")
    #expect(decoded.call.test == call.test)
    #expect(decoded.call.earlier == call.earlier)
    #expect(decoded.mode == request.mode)
  }
}
