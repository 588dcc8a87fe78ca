import FactClient
import NumberFactConfig
import Testing

@Suite struct AppConfigTests {
  static let path = "/home/a/.config/numberfact/config.toml"

  @Test func everyKeyIsReadAsItsFlagIsSpelled() throws {
    let config = try AppConfig.parse(
      """
      # what I always type
      source = "offline"
      base-url = "http://127.0.0.1:8080"
      kind = "math"
      timeout = 2.5
      """, path: Self.path)
    #expect(config.source == "offline")
    #expect(config.baseURL == "http://127.0.0.1:8080")
    #expect(config.kind == .math)
    #expect(config.timeout == 2.5)
    #expect(config.warnings.isEmpty)
  }

  @Test func aWholeNumberOfSecondsIsATimeout() throws {
    #expect(try AppConfig.parse("timeout = 3", path: Self.path).timeout == 3)
  }

  @Test func anEmptyFileIsEveryDefault() throws {
    #expect(try AppConfig.parse("", path: Self.path) == AppConfig())
  }

  @Test func anUnknownKeyIsAWarningNamingItsLine() throws {
    let config = try AppConfig.parse("kind = \"year\"\n\ncolour = \"blue\"\n", path: Self.path)
    #expect(config.kind == .year)
    #expect(
      config.warnings == [
        "\(Self.path):3: unknown key 'colour' ignored (the keys are source, base-url, kind, timeout)"
      ])
  }

  @Test(arguments: [
    ("source = \"pigeon\"", 1, "source must be"),
    ("kind = \"poem\"", 1, "kind must be"),
    ("\n\ntimeout = -1", 3, "timeout must be a number of seconds above 0 and at most 600"),
    ("timeout = \"fast\"", 1, "timeout must be"),
    ("timeout = 601", 1, "timeout must be"),
    ("timeout = nan", 1, "timeout must be"),
    ("base-url = \"ftp://example.com\"", 1, "base-url must be an http or https URL"),
    ("kind = 3", 1, "kind must be"),
  ])
  func aBadValueNamesTheFileTheLineAndWhatItMustBe(
    _ text: String, _ line: Int, _ message: String
  ) throws {
    #expect {
      try AppConfig.parse(text, path: Self.path)
    } throws: { error in
      guard let error = error as? AppConfigError else { return false }
      return error.line == line && error.message.hasPrefix(message)
        && error.description.hasPrefix("\(Self.path):\(line): ")
    }
  }

  @Test(arguments: [
    ("source = \"auto\"\nkind = \n", 2),
    ("source = \"auto\"\n[unclosed\n", 2),
    ("kind = \"math\"\nkind = \"year\"\n", 2),
    ("\n\n\nsource = \"auto", 4),
  ])
  func aFileThatIsNotTOMLNamesTheLine(_ text: String, _ line: Int) throws {
    #expect {
      try AppConfig.parse(text, path: Self.path)
    } throws: { error in
      guard let error = error as? AppConfigError else { return false }
      return error.line == line && !error.message.isEmpty && !error.message.contains("\n")
    }
  }

  @Test func theDefaultPathFollowsXDG() {
    #expect(
      AppConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"])
        == "/c/numberfact/config.toml")
    #expect(
      AppConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "c", "HOME": "/h"])
        == "/h/.config/numberfact/config.toml")
    #expect(AppConfig.defaultPath(environment: [:]) == nil)
  }

  @Test func aMissingFileIsEveryDefault() throws {
    #expect(try AppConfig.load(path: "/nonexistent/numberfact/config.toml") == AppConfig())
  }

  /// Found by fuzzing: the TOML parser stopped the process with an assertion on these,
  /// where TOML allows neither. Each is now an error naming its line.
  @Test(arguments: [
    ("[é]\n", 1, "'é' (U+E9) starts a table name"),
    ("timeout = 5\nkind = é\n", 2, "'é' (U+E9) outside quotes"),
    ("kind = \"math\"\n[:]\n", 2, "':' (U+3A) starts a table name"),
    ("[[ {x}]]\n", 1, "'{' (U+7B) starts a table name"),
    ("kind = math\u{00A0}\n", 1, "U+A0 outside quotes"),
    ("i = [\n  1,\n  }\n", 3, "'}' (U+7D) in an array"),
  ])
  func textTheParserWouldStopOnIsAnError(text: String, line: Int, start: String) {
    #expect {
      _ = try AppConfig.parse(text, path: "/c/config.toml")
    } throws: { error in
      guard let error = error as? AppConfigError else { return false }
      return error.line == line && error.message.hasPrefix(start)
        && error.description.hasPrefix("/c/config.toml:\(line): ")
    }
  }

  /// What the check before the parser lets through: text beyond ASCII in strings and
  /// comments, and arrays and inline tables at a line's start inside a value.
  @Test func textBeyondASCIIInQuotesAndCommentsIsRead() throws {
    let config = try AppConfig.parse(
      #"""
      # café, 数字
      kind = "math" # ☕
      base-url = 'http://numbersapi.com'
      note = """
      [é] is fine in here
      """
      list = [
        [1, 2],
        { a = "ü" },
      ]
      [elsewhere]
      name = "ok"
      """#, path: "/c/config.toml")
    #expect(config.kind == .math)
    #expect(config.baseURL == "http://numbersapi.com")
    #expect(config.warnings.count == 3)
  }
}
