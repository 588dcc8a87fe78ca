extension ChildSpawn {
  /// `variables` (`NAME=value` each) with `changes` put in: a variable `changes` names is
  /// replaced, the rest are kept in order.
  static func merged(_ variables: [String], with changes: [String: String]) -> [String] {
    variables.filter { changes[String($0.prefix { $0 != "=" })] == nil }
      + changes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
  }
}
