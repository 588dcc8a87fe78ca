import SuiteSupport
import Testing

@testable import FactClient

@Suite(.computeThread) struct OfflineFactTests {
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

  /// The suite computes for seconds, so it keeps off the pool the tests beside it need.
  @Test func runsOnTheComputeThread() {
    let executor = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
    #expect(executor != nil)
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
    (
      .math, 2,
      "2 is the only even prime. It is also the 3rd Fibonacci number and a Sophie Germain prime (2 × 2 + 1 = 5 is prime)."
    ),
    (.math, 97, "97 is prime. It is also a happy number."),
    (
      .math, 36,
      "36 is a perfect square (6²). It is also the 8th triangular number, a Harshad number (divisible by its digit sum, 9) and abundant (its proper divisors add up to 55). It factors as 2² × 3²."
    ),
    (
      .math, -8,
      "-8 is negative and even; its magnitude 8 is the 6th Fibonacci number. 8 is also a perfect cube (2³). It factors as −1 × 2³."
    ),
    (
      .math, 1729,
      "1729 is the smallest number that is a sum of two cubes in two ways, 1³ + 12³ and 9³ + 10³: the taxicab number of Hardy and Ramanujan. It is also a Harshad number (divisible by its digit sum, 19). It factors as 7 × 13 × 19."
    ),
    (
      .math, 8128,
      "8128 is a perfect number: it is the sum of its proper divisors. It is also the 127th triangular number and a happy number. It factors as 2⁶ × 127."
    ),
    (.math, 127, "127 is a Mersenne prime, 2⁷ − 1. It is also a palindrome in binary (1111111)."),
    (
      .math, 64,
      "64 is a power of two (2⁶). It is also a perfect square (8²) and a perfect cube (4³). It factors as 2⁶."
    ),
    (
      .math, 45,
      "45 is a Kaprekar number: 45² = 2025, and 20 + 25 = 45. It is also a palindrome in binary (101101), the 9th triangular number and a Harshad number (divisible by its digit sum, 9). It factors as 3² × 5."
    ),
    (
      .math, .max,
      "9223372036854775807 is the largest 64-bit Int (2⁶³ − 1). It is also a palindrome in binary. It factors as 7² × 73 × 127 × 337 × 92737 × 649657."
    ),
    (
      .math, .min,
      "-9223372036854775808 is negative and even; its magnitude 9223372036854775808 is 2⁶³, one more than the largest 64-bit Int. 9223372036854775808 is also a perfect cube (2097152³). It factors as −1 × 2⁶³."
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
      "Year -43 (astronomical numbering, in which year 0 is 1 BC) is 44 BC, which is not a leap year in the 1st century BC; in the Gregorian calendar, January 1 of that year is a Tuesday."
    ),
    (
      .date, 364,
      "Day 364 is December 30 in most years and December 29 in a leap year; 1 day of a 365-day year remains after it."
    ),
    (
      .date, 365,
      "Day 365 is December 31 in most years and December 30 in a leap year; it is the last day of a 365-day year."
    ),
    (
      .date, 400,
      "There is no day 400 in a year, which has at most 366; 400 days is 57 weeks and 1 day, or about a year."
    ),
    (
      .date, 371,
      "There is no day 371 in a year, which has at most 366; 371 days is 53 weeks, or about a year."
    ),
    (
      .date, 730,
      "There is no day 730 in a year, which has at most 366; 730 days is 104 weeks and 2 days, or about 2 years."
    ),
  ])
  func writesTheseSentences(kind: FactKind, number: Int, text: String) async throws {
    #expect(try await NumberFactClient.offline.fact(number, kind).text == text)
  }

  @Test func yearFactsCoverTheExtremes() async throws {
    let min = try await NumberFactClient.offline.fact(.min, .year).text
    #expect(min.hasPrefix("Year -9223372036854775808 (astronomical numbering"))
    #expect(min.contains(" is 9223372036854775809 BC, which "))
    let max = try await NumberFactClient.offline.fact(.max, .year).text
    #expect(max.contains("92233720368547759th century"))
  }
}

@Suite(.computeThread) struct NumberTheoryTests {
  /// Every property the facts claim, checked by brute force for 1 to 5,000.
  @Test func propertiesMatchBruteForce() {
    for n in UInt64(1)...5_000 {
      var divisorSum: UInt64 = n > 1 ? 1 : 0
      var d: UInt64 = 2
      while d * d <= n {
        if n % d == 0 { divisorSum += d + (d * d == n ? 0 : n / d) }
        d += 1
      }
      #expect(NumberTheory.properDivisorSum(n) == UInt128(divisorSum), "σ(\(n)) − \(n)")
      var cubes: [(UInt64, UInt64)] = []
      var a: UInt64 = 1
      while a * a * a * 2 <= n {
        let rest = n - a * a * a
        let b = NumberTheory.cubeRoot(rest)
        if b * b * b == rest { cubes.append((a, b)) }
        a += 1
      }
      #expect(
        NumberTheory.sumsOfTwoCubes(n).map { [$0.0, $0.1] } == cubes.map { [$0.0, $0.1] },
        "cubes of \(n)")
      let square = n * n
      var kaprekar = false
      var modulus: UInt64 = 10
      while modulus <= square {
        if square % modulus > 0, square / modulus + square % modulus == n { kaprekar = true }
        modulus *= 10
      }
      #expect((NumberTheory.kaprekarSplit(n) != nil) == (kaprekar && n > 1), "Kaprekar \(n)")
      let decimal = String(n)
      #expect(NumberTheory.isPalindrome(n) == (decimal == String(decimal.reversed())))
      var seen: Set<UInt64> = []
      var value = n
      while value != 1, seen.insert(value).inserted {
        value = String(value).compactMap(\.wholeNumberValue).map { UInt64($0 * $0) }.reduce(0, +)
      }
      #expect(NumberTheory.isHappy(n) == (value == 1), "happy \(n)")
      var power: (UInt64, Int)?
      for base in UInt64(2)...141 {
        var value = base * base
        var exponent = 2
        while value < n {
          value *= base
          exponent += 1
        }
        if value == n, exponent > (power?.1 ?? 0) { power = (base, exponent) }
      }
      #expect(
        NumberTheory.perfectPower(n).map { [$0.base, UInt64($0.exponent)] }
          == power.map { [$0.0, UInt64($0.1)] }, "power \(n)")
    }
  }

  @Test func namedSequencesAreRight() {
    #expect(NumberTheory.factorials.prefix(6) == [1, 1, 2, 6, 24, 120])
    #expect(NumberTheory.factorials.last == 2_432_902_008_176_640_000)
    #expect(NumberTheory.catalan.prefix(8) == [1, 1, 2, 5, 14, 42, 132, 429])
    #expect(NumberTheory.catalan.last == 11_959_798_385_860_453_492)  // C(36)
    let perfect = (UInt64(2)...10_000).filter { NumberTheory.properDivisorSum($0) == UInt128($0) }
    #expect(perfect == [6, 28, 496, 8128])
    #expect(NumberTheory.properDivisorSum(2_305_843_008_139_952_128) == 2_305_843_008_139_952_128)
    let taxicab = (UInt64(2)...100_000).filter { NumberTheory.sumsOfTwoCubes($0).count >= 2 }
    #expect(taxicab.prefix(3) == [1729, 4104, 13832])
    #expect(NumberTheory.sumsOfTwoCubes(87_539_319).count == 3)
  }

  /// Random 64-bit numbers: whatever is claimed holds, checked with overflow-safe arithmetic.
  @Test func claimsHoldForRandomNumbers() {
    var generator = SplitMix64(seed: 1729)
    for _ in 0..<2_000 {
      let n = generator.next() >> (generator.next() % 64)
      for (a, b) in NumberTheory.sumsOfTwoCubes(n) {
        #expect(
          UInt128(a) * UInt128(a) * UInt128(a) + UInt128(b) * UInt128(b) * UInt128(b) == UInt128(n))
      }
      if let split = NumberTheory.kaprekarSplit(n) {
        #expect(split.left + split.right == UInt128(n))
      }
      if let (base, exponent) = NumberTheory.perfectPower(n) {
        #expect(NumberTheory.power(base, exponent) == n)
      }
      if n > 1 {
        let product = NumberTheory.factorize(n).reduce(UInt128(1)) { product, factor in
          (0..<factor.exponent).reduce(product) { value, _ in value * UInt128(factor.prime) }
        }
        #expect(product == UInt128(n))
      }
    }
  }

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
