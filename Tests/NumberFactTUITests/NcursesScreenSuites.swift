import Testing

/// The suites that open ncurses screens, one test at a time. ncurses keeps one list of
/// windows for the process: resizing one screen resizes every other screen's windows too,
/// so two tests with screens open at once would draw into each other's sizes.
@Suite(.serialized) enum NcursesScreenSuites {}
