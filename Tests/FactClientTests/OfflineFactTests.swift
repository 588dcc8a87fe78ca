import Testing

@testable import FactClient

@Suite struct OfflineFactTests {
  static let extremes: [Int] = [
    .min, .min + 1, -1_000_000_007, -366, -44, -2, -1, 0, 1, 2, 3, 4, 7, 12, 13, 36, 42, 60,
    64, 365, 366, 367, 1_729, 2_024, 3_999, 4_000, 1_000_000_007, .max - 1, .max,
  ]

  static func numbers() -> [Int] {
    var generator = SplitMix64(seed: 42)
    let random = (0..<500).map { _ in Int(truncatingIfNeeded: generator.next()) }
    let small = (0..<200).map { _ in Int(truncatingIfNeeded: generator.next() % 20_000) - 10_000 }
    return extremes + random + small
  }

  @Test(arguments: FactKind.allCases)
  func everyIntGetsAShortCleanDeterministicFact(kind: FactKind) async throws {
    for number in Self.numbers() {
      let fact = try await NumberFactClient.offline.fact(number, kind)
      #expect(fact.number == number)
      #expect(fact.kind == kind)
      #expect(fact.source == .offline)
      #expect(fact.found)
      #expect(!fact.text.isEmpty)
      #expect(fact.text.count <= FactText.maximumLength)
      #expect(FactText.sanitize(fact.text) == fact.text, "\(number) \(kind): \(fact.text)")
      #expect(fact.text.hasSuffix("."))
      #expect(try await NumberFactClient.offline.fact(number, kind) == fact)
    }
  }

  @Test(arguments: [FactKind.trivia, .math])
  func triviaAndMathNameTheNumber(kind: FactKind) async throws {
    for number in Self.numbers() {
      let text = try await NumberFactClient.offline.fact(number, kind).text
      #expect(text.contains(String(number)), "\(number): \(text)")
    }
  }

  @Test(arguments: [
    (
      FactKind.math, 0, "0 is even, neither prime nor composite, and neither positive nor negative."
    ),
    (.math, 2, "2 is the only even prime; it is also the 3rd Fibonacci number."),
    (.math, 7, "7 is odd and prime."),
    (
      .math, 36,
      "36 is even and factors as 2² × 3²; it is also a perfect square (6²) and the 8th triangular number (1 + 2 + … + 8)."
    ),
    (.math, -8, "-8 is even and factors as −1 × 2³; it is also a perfect cube (−2³)."),
    (
      .math, .max,
      "9223372036854775807 is odd and factors as 7² × 73 × 127 × 337 × 92737 × 649657; it is also the largest 64-bit Int (2⁶³ − 1)."
    ),
    (
      .math, .min,
      "-9223372036854775808 is even and factors as −1 × 2⁶³; it is also a perfect cube (−2097152³) and the smallest 64-bit Int (−2⁶³), whose magnitude no Int can hold."
    ),
    (
      .trivia, 13,
      "13 is the 7th Fibonacci number. It is written XIII in Roman numerals, 1101 in binary and 0xD in hexadecimal, and its digits sum to 4."
    ),
    (
      .trivia, -42,
      "-42 is 42 below zero. It is written −101010 in binary and −0x2A in hexadecimal, and its digits sum to 6."
    ),
    (.date, 1, "Day 1 of the year is January 1; 364 days of a 365-day year remain after it."),
    (
      .date, 61,
      "Day 61 is March 2 in most years and March 1 in a leap year; 304 days of a 365-day year remain after it."
    ),
    (.date, 0, "Days of the year are numbered from 1 (January 1), so there is no day 0."),
    (
      .year, 2024,
      "2024 is a leap year in the 21st century; in the Gregorian calendar, January 1 of that year is a Monday."
    ),
    (
      .year, 1900,
      "1900 is not a leap year in the 19th century; in the Gregorian calendar, January 1 of that year is a Monday."
    ),
    (
      .year, 2000,
      "2000 is a leap year in the 20th century; in the Gregorian calendar, January 1 of that year is a Saturday."
    ),
    (
      .year, -43,
      "44 BC is not a leap year in the 1st century BC; in the Gregorian calendar, January 1 of that year is a Tuesday."
    ),
  ])
  func writesTheseSentences(kind: FactKind, number: Int, text: String) async throws {
    #expect(try await NumberFactClient.offline.fact(number, kind).text == text)
  }

  @Test func yearFactsCoverTheExtremes() async throws {
    let min = try await NumberFactClient.offline.fact(.min, .year).text
    #expect(min.hasPrefix("9223372036854775809 BC"))
    let max = try await NumberFactClient.offline.fact(.max, .year).text
    #expect(max.contains("92233720368547759th century"))
  }
}

@Suite struct NumberTheoryTests {
  @Test func primalityMatchesTrialDivision() {
    func isPrimeSlowly(_ n: UInt64) -> Bool {
      guard n >= 2 else { return false }
      var d: UInt64 = 2
      while d * d <= n {
        if n % d == 0 { return false }
        d += 1
      }
      return true
    }
    for n: UInt64 in 0...20_000 {
      #expect(NumberTheory.isPrime(n) == isPrimeSlowly(n), "\(n)")
    }
    #expect(NumberTheory.isPrime(18_446_744_073_709_551_557))  // largest 64-bit prime
    #expect(!NumberTheory.isPrime(3_215_031_751))  // strong pseudoprime to bases 2, 3, 5, 7
  }

  @Test func factorizationMultipliesBackToTheNumber() {
    var generator = SplitMix64(seed: 7)
    let numbers: [UInt64] =
      [2, 4, 1 << 63, .max, 600_851_475_143, 18_446_744_030_759_878_681]
      + (0..<300).map { _ in generator.next() | 2 }
    for n in numbers {
      let factors = NumberTheory.factorize(n)
      var product: UInt64 = 1
      for (prime, exponent) in factors {
        #expect(NumberTheory.isPrime(prime), "\(prime) in \(n)")
        for _ in 0..<exponent {
          product = product.multipliedReportingOverflow(by: prime).partialValue
        }
      }
      #expect(product == n, "\(n) = \(factors)")
      #expect(factors.map(\.prime) == factors.map(\.prime).sorted())
    }
  }

  @Test func rootsAreExactAtTheEdges() {
    #expect(NumberTheory.squareRoot(.max) == 4_294_967_295)
    #expect(NumberTheory.squareRoot(4_294_967_296 * 4_294_967_295) == 4_294_967_295)
    #expect(NumberTheory.cubeRoot(.max) == 2_642_245)
    #expect(NumberTheory.cubeRoot(1 << 63) == 2_097_152)
    for n: UInt64 in 0...10_000 {
      let r = NumberTheory.squareRoot(n)
      #expect(r * r <= n && (r + 1) * (r + 1) > n)
      let c = NumberTheory.cubeRoot(n)
      #expect(c * c * c <= n && (c + 1) * (c + 1) * (c + 1) > n)
    }
  }

  @Test func fibonacciAndTriangularNumbersAreRecognized() {
    #expect(NumberTheory.fibonacci.count == 94)
    #expect(NumberTheory.fibonacci.last == 12_200_160_415_121_876_738)
    #expect(NumberTheory.fibonacciIndex(144) == 12)
    #expect(NumberTheory.fibonacciIndex(145) == nil)
    var triangular: UInt64 = 0
    var expected: [UInt64: UInt64] = [:]
    for k: UInt64 in 1...200 {
      triangular += k
      expected[triangular] = k
    }
    for n: UInt64 in 1...triangular {
      #expect(NumberTheory.triangularIndex(n) == expected[n], "\(n)")
    }
    #expect(NumberTheory.triangularIndex(.max) == nil)
    #expect(NumberTheory.triangularIndex(18_446_744_070_963_499_500) == 6_074_000_999)
  }

  @Test func romanNumeralsCoverOneTo3999() {
    #expect(NumberTheory.roman(1) == "I")
    #expect(NumberTheory.roman(1_994) == "MCMXCIV")
    #expect(NumberTheory.roman(3_999) == "MMMCMXCIX")
    #expect(NumberTheory.roman(0) == nil)
    #expect(NumberTheory.roman(4_000) == nil)
  }

  @Test func ordinalsUseTheRightSuffix() {
    let cases: [UInt64: String] = [
      1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st",
      111: "111th", 102: "102nd",
    ]
    for (n, text) in cases { #expect(NumberTheory.ordinal(n) == text) }
  }
}

@Suite struct FactKindTests {
  @Test func nextKindCyclesThroughEveryKind() {
    #expect(FactKind.trivia.next == .math)
    #expect(FactKind.math.next == .date)
    #expect(FactKind.date.next == .year)
    #expect(FactKind.year.next == .trivia)
  }
}
