/// How a schedule's story is folded so the race can be read: the steps that make it are
/// kept, and what only goes on in the default order, or repeats, is said in a line.
enum StoryFolding {
  /// `lines` as a story tells them: where some matter, each run of three or more that only
  /// go on in the default order is one line, and so is each run of three or more steps ahead
  /// of one task that waits all along (a task held back through a loop of yields); a block
  /// that repeats is told once, then how often it came again.
  static func fold(_ lines: [StoryLine]) -> [String] {
    let lines = holds(lines)
    guard lines.contains(where: { $0.weight == .matters }) else {
      return repeats(lines.map(\.text))
    }
    var narrated: [String] = []
    var quiet: [String] = []
    // Lines in the default order, tasks starting among them, since the last that matters.
    var calm: [StoryLine] = []
    func flush() {
      if quiet.count > 2 {
        narrated.append("… \(quiet.count) steps in the default order")
      } else {
        narrated += quiet
      }
      quiet = []
    }
    // A long calm stretch, tasks starting in it, is one line: who starts where nothing
    // departs tells nothing of the race.
    func settle() {
      let starts = calm.count { $0.weight == .context }
      if calm.count > longestCalm, starts > 0 {
        let tasks = starts == 1 ? "1 task starts" : "\(starts) tasks start"
        narrated.append("… \(calm.count) steps in the default order, in which \(tasks)")
      } else {
        for line in calm {
          if line.weight == .quiet {
            quiet.append(line.text)
          } else {
            flush()
            narrated.append(line.text)
          }
        }
        flush()
      }
      calm = []
    }
    for line in lines {
      if line.weight == .matters {
        settle()
        narrated.append(line.text)
      } else {
        calm.append(line)
      }
    }
    settle()
    return repeats(narrated)
  }

  /// The longest run of lines that a story folds when it repeats.
  static let longestRepeat = 12

  /// `lines` with each block of up to ``longestRepeat`` lines that comes three times or more
  /// in a row narrated once, then how often it came again: a loop reads as one turn of it.
  static func repeats(_ lines: [String]) -> [String] {
    var folded: [String] = []
    var index = 0
    while index < lines.count {
      var best: (length: Int, times: Int)?
      for length in 1...longestRepeat where index + 3 * length <= lines.count {
        var times = 1
        while index + (times + 1) * length <= lines.count,
          lines[(index + times * length)..<(index + (times + 1) * length)]
            == lines[index..<(index + length)]
        {
          times += 1
        }
        if times >= 3, times * length > (best.map { $0.times * $0.length } ?? 0) {
          best = (length, times)
        }
      }
      guard let best else {
        folded.append(lines[index])
        index += 1
        continue
      }
      folded += lines[index..<(index + best.length)]
      let block =
        best.length == 1 ? "the step above repeats" : "the \(best.length) steps above repeat"
      folded.append("… \(block) \(best.times - 1) more times")
      index += best.times * best.length
    }
    return folded
  }

  /// The most lines in the default order, tasks starting among them, narrated one by one.
  static let longestCalm = 6

  /// `lines` with each run that holds one task back folded: a stretch that begins and ends
  /// with a step ahead of the same task, with only such steps and steps in the default
  /// order between, three of them ahead of it at least.
  private static func holds(_ lines: [StoryLine]) -> [StoryLine] {
    var folded: [StoryLine] = []
    var index = 0
    while index < lines.count {
      guard let held = lines[index].holdsBack else {
        folded.append(lines[index])
        index += 1
        continue
      }
      var end = index
      var last = index
      var ahead = 1
      while end + 1 < lines.count,
        lines[end + 1].weight == .quiet || lines[end + 1].holdsBack == held
      {
        end += 1
        if lines[end].holdsBack == held {
          last = end
          ahead += 1
        }
      }
      guard ahead >= 3 else {
        folded.append(lines[index])
        index += 1
        continue
      }
      var runners: [String] = []
      for line in lines[index...last] {
        if let runner = line.runner, !runners.contains(runner) { runners.append(runner) }
      }
      let named =
        runners.count > 3
        ? runners.prefix(3).joined(separator: ", ") + " and \(runners.count - 3) more"
        : runners.count > 1
          ? runners.dropLast().joined(separator: ", ") + " and " + runners[runners.count - 1]
          : runners.joined()
      folded.append(
        StoryLine(
          text: "… \(last - index + 1) steps run ahead of \(held), which waits all along"
            + " (\(ahead) of them departures): " + named,
          weight: .matters))
      index = last + 1
    }
    return folded
  }
}
