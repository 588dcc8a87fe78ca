/// Thrown by the unimplemented test client after it has reported the issue.
package struct UnimplementedFactError: Error, CustomStringConvertible {
  /// Creates the error.
  package init() {}

  package var description: String { "The fact client is not implemented in this test." }
}
