/// The timeout a test gives the client when the timeout is not what it tests. A local server
/// answers at once, but a suite started all at once on a loaded machine (under
/// ThreadSanitizer above all) can keep a request from running past the app's 5 s.
let untestedTimeout: Duration = .seconds(60)
