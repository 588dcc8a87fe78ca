/// A line of a schedule's story as the writer makes it, with what folding needs to know of
/// it: how much it matters to the race, and, for a step that departs from the default order,
/// who ran ahead of whom.
struct StoryLine {
  enum Weight {
    /// A choice, a departure from the default order, or a task entering an actor while
    /// another is suspended in it: what the race is made of.
    case matters
    /// A task starting: who takes part.
    case context
    /// A task going on in the default order.
    case quiet
  }
  let text: String
  let weight: Weight
  /// For a step that departs from the default order: who ran, and the task it ran ahead
  /// of, which a run of such steps folds by.
  var runner: String? = nil
  var holdsBack: String? = nil
}
