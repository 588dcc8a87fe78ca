/// Facts computed locally for every `Int` and every kind, deterministically.
///
/// No arithmetic here can trap: numbers are handled through their `UInt64` magnitude, and
/// `Int.min` and `Int.max` get sentences of their own.
enum OfflineFacts {
  static func fact(_ number: Int, _ kind: FactKind) -> NumberFact {
    let text: String
    switch kind {
    case .trivia: text = trivia(number)
    case .math: text = math(number)
    case .date: text = date(number)
    case .year: text = year(number)
    }
    return NumberFact(number: number, kind: kind, text: text, found: true, source: .offline)
  }

  // MARK: Math

  static func math(_ n: Int) -> String {
    let m = UInt64(n.magnitude)
    switch n {
    case 0:
      return "0 is even, neither prime nor composite, and neither positive nor negative."
    case 1:
      return "1 is odd and a unit: neither prime nor composite, and it divides every number."
    case -1:
      return "-1 is odd and a unit: its own inverse, since −1 × −1 = 1."
    default: break
    }
    let prime = NumberTheory.isPrime(m)
    var phrases = remarkable(m)
    if n == .max {
      phrases.insert(Phrase("the largest 64-bit Int (2⁶³ − 1)"), at: 0)
    }
    if n == .min {
      // Being 2⁶³ is said once, here.
      phrases =
        [Phrase("2⁶³, one more than the largest 64-bit Int")]
        + phrases.filter { !$0.long.hasPrefix("a power of two") }
    }
    let parity = m % 2 == 0 ? "even" : "odd"
    let headline = phrases.first?.long ?? (prime ? "odd and prime" : parity)
    var sentences: [String] = []
    if n < 0 {
      sentences.append("\(n) is negative and \(parity); its magnitude \(m) is \(headline).")
    } else {
      sentences.append("\(n) is \(headline).")
    }
    let others = phrases.dropFirst().prefix(3).map(\.short)
    if !others.isEmpty {
      sentences.append("\(n < 0 ? "\(m)" : "It") is also \(list(others)).")
    }
    if !prime {
      let factors = NumberTheory.factorize(m).map { factor in
        factor.exponent == 1
          ? "\(factor.prime)" : "\(factor.prime)\(NumberTheory.superscript(factor.exponent))"
      }.joined(separator: " × ")
      sentences.append("It factors as \(n < 0 ? "−1 × " : "")\(factors).")
    } else if !phrases.prefix(4).contains(where: { $0.long.contains("prime") }) {
      sentences.append("It is prime.")
    }
    return sentences.joined(separator: " ")
  }

  /// A property: how a headline says it, and how a list of further properties does.
  struct Phrase {
    let long: String
    let short: String

    init(_ long: String, short: String? = nil) {
      self.long = long
      self.short = short ?? long
    }
  }

  /// What is remarkable about `m` (≥ 2), rarest first.
  static func remarkable(_ m: UInt64) -> [Phrase] {
    var phrases: [Phrase] = []
    let sum = NumberTheory.properDivisorSum(m)
    if sum == UInt128(m) {
      phrases.append(
        Phrase(
          "a perfect number: it is the sum of its proper divisors",
          short: "a perfect number"))
    }
    let cubes = NumberTheory.sumsOfTwoCubes(m)
    if cubes.count >= 2 {
      let ways = list(cubes.map { "\($0.0)³ + \($0.1)³" })
      let count = cubes.count == 2 ? "two" : "\(cubes.count)"
      phrases.append(
        m == 1729
          ? Phrase(
            "the smallest number that is a sum of two cubes in two ways, \(ways): "
              + "the taxicab number of Hardy and Ramanujan",
            short: "the smallest sum of two cubes in two ways (\(ways))")
          : Phrase(
            "a sum of two cubes in \(count) ways: \(ways)",
            short: "a sum of two cubes in \(count) ways (\(ways))"))
    }
    let prime = NumberTheory.isPrime(m)
    if m == 2 { phrases.append(Phrase("the only even prime")) }
    if prime, let exponent = mersenneExponent(m) {
      phrases.append(Phrase("a Mersenne prime, 2\(NumberTheory.superscript(exponent)) − 1"))
    }
    if m >= 6, let k = NumberTheory.factorials.firstIndex(of: m) {
      phrases.append(Phrase("\(k)!, the product 1 × 2 × … × \(k)", short: "\(k)!"))
    }
    if m >= 5, let k = NumberTheory.catalan.lastIndex(of: m) {
      phrases.append(
        Phrase(
          "the Catalan number C\(k): there are \(m) ways to bracket a product of \(k + 1) factors",
          short: "the Catalan number C\(k)"))
    }
    if m == 6174 || m == 495 {
      let digits = m == 6174 ? "four" : "three"
      phrases.append(
        Phrase(
          "Kaprekar's \(digits)-digit constant: sort a \(digits)-digit number's digits down and "
            + "up, subtract, repeat, and almost every start ends here",
          short: "Kaprekar's \(digits)-digit constant"))
    } else if let split = NumberTheory.kaprekarSplit(m) {
      phrases.append(
        Phrase(
          "a Kaprekar number: \(m)² = \(UInt128(m) * UInt128(m)), and \(split.left) + \(split.right) = \(m)",
          short: "a Kaprekar number (\(split.left) + \(split.right) = \(m), from \(m)²)"))
    }
    if let index = NumberTheory.fibonacciIndex(m) {
      phrases.append(Phrase("the \(NumberTheory.ordinal(UInt64(index))) Fibonacci number"))
    }
    if let (base, exponent) = NumberTheory.perfectPower(m) {
      let power = "\(base)\(NumberTheory.superscript(exponent))"
      switch exponent {
      case 2: phrases.append(Phrase("a perfect square (\(power))"))
      case 3: phrases.append(Phrase("a perfect cube (\(power))"))
      default:
        phrases.append(
          Phrase(base == 2 ? "a power of two (\(power))" : "a perfect power (\(power))"))
        // 64 is also 8² and 4³.
        if exponent % 2 == 0, let root = NumberTheory.power(base, exponent / 2) {
          phrases.append(Phrase("a perfect square (\(root)²)"))
        }
        if exponent % 3 == 0, let root = NumberTheory.power(base, exponent / 3) {
          phrases.append(Phrase("a perfect cube (\(root)³)"))
        }
      }
    }
    if prime {
      var kinds: [Phrase] = []
      if m <= UInt64.max / 2, NumberTheory.isPrime(2 * m + 1) {
        kinds.append(
          Phrase(
            "a Sophie Germain prime: 2 × \(m) + 1 = \(2 * m + 1) is prime too",
            short: "a Sophie Germain prime (2 × \(m) + 1 = \(2 * m + 1) is prime)"))
      }
      if m > 5, m % 2 == 1, NumberTheory.isPrime((m - 1) / 2) {
        kinds.append(
          Phrase(
            "a safe prime: (\(m) − 1) / 2 = \((m - 1) / 2) is prime too",
            short: "a safe prime ((\(m) − 1) / 2 = \((m - 1) / 2) is prime)"))
      }
      let twins = [m >= 4 ? m - 2 : nil, m <= .max - 2 ? m + 2 : nil].compactMap { $0 }
        .filter(NumberTheory.isPrime)
      if let twin = twins.first {
        kinds.append(Phrase("a twin prime with \(twin)"))
      }
      phrases += kinds.isEmpty && m != 2 && mersenneExponent(m) == nil ? [Phrase("prime")] : kinds
    }
    if m >= 11, NumberTheory.isPalindrome(m) {
      phrases.append(Phrase("a palindrome: it reads the same backwards", short: "a palindrome"))
    }
    if m >= 3, NumberTheory.isPalindrome(m, radix: 2) {
      let binary = String(m, radix: 2)
      phrases.append(
        Phrase(binary.count <= 16 ? "a palindrome in binary (\(binary))" : "a palindrome in binary")
      )
    }
    if m > 1, let index = NumberTheory.triangularIndex(m) {
      phrases.append(
        Phrase(
          "the \(NumberTheory.ordinal(index)) triangular number: 1 + 2 + … + \(index)",
          short: "the \(NumberTheory.ordinal(index)) triangular number"))
    }
    if m >= 10, NumberTheory.isHappy(m) {
      phrases.append(
        Phrase(
          "a happy number: sum the squares of its digits, again and again, and you reach 1",
          short: "a happy number"))
    }
    let digitSum = NumberTheory.digitSum(m)
    if m >= 10, m % digitSum == 0 {
      phrases.append(
        Phrase(
          "a Harshad number: its digits sum to \(digitSum), which divides it",
          short: "a Harshad number (divisible by its digit sum, \(digitSum))"))
    }
    if sum > UInt128(m) {
      phrases.append(
        Phrase(
          "abundant: its proper divisors add up to \(sum), more than itself",
          short: "abundant (its proper divisors add up to \(sum))"))
    }
    return phrases
  }

  /// The p with m = 2^p − 1, if there is one.
  private static func mersenneExponent(_ m: UInt64) -> Int? {
    guard m < .max else { return 64 }
    let next = m + 1
    guard next & (next - 1) == 0 else { return nil }
    return next.trailingZeroBitCount
  }

  // MARK: Trivia

  static func trivia(_ n: Int) -> String {
    let m = UInt64(n.magnitude)
    var headline: String
    switch n {
    case 0:
      headline = "0 is the only number that is neither positive nor negative."
    case .max:
      headline = "\(n) is the largest number a 64-bit Int can hold; one more would overflow."
    case .min:
      headline = "\(n) is the smallest 64-bit Int; negating it would overflow."
    default:
      if n > 1, let first = remarkable(m).first {
        headline = "\(n) is \(first.long)."
      } else if n > 1, NumberTheory.isPrime(m) {
        headline = "\(n) is prime: only 1 and \(n) divide it."
      } else if n > 1, case let root = NumberTheory.squareRoot(m), root * root == m {
        headline = "\(n) is a perfect square: \(root) × \(root)."
      } else if n > 0, let index = NumberTheory.triangularIndex(m), index > 1 {
        headline = "\(n) objects can be stacked into a triangle with \(index) rows."
      } else if n < 0 {
        headline = "\(n) is \(m) below zero."
      } else {
        headline = "\(n) is \(m % 2 == 0 ? "even" : "odd")."
      }
    }
    var forms: [String] = []
    if let roman = NumberTheory.roman(m), n > 0 { forms.append("\(roman) in Roman numerals") }
    let sign = n < 0 ? "−" : ""
    forms.append("\(sign)\(String(m, radix: 2)) in binary")
    forms.append("\(sign)0x\(String(m, radix: 16, uppercase: true)) in hexadecimal")
    let digits = NumberTheory.digitSum(m)
    return headline + " It is written " + list(forms) + ", and its digits sum to \(digits)."
  }

  // MARK: Date

  /// "March 1" for day 61 of a leap year; "March 2" for day 61 of a common one.
  private static func dayName(_ day: Int, leap: Bool) -> String {
    // A common year is a leap year without February 29, day 60.
    let leapDay = leap || day < 60 ? day : day + 1
    return FactDate(dayOfYear: leapDay)?.description ?? "December 31"
  }

  static func date(_ n: Int) -> String {
    switch n {
    case 366:
      return "Day 366 exists only in leap years: December 31. Other years end on day 365."
    case 60:
      return
        "Day 60 is February 29 in a leap year, a date that comes round only once every four years, and March 1 in other years."
    case 1...365:
      let leap = dayName(n, leap: true)
      let common = dayName(n, leap: false)
      let remaining = 365 - n
      let when =
        leap == common
        ? "Day \(n) of the year is \(common)"
        : "Day \(n) is \(common) in most years and \(leap) in a leap year"
      let rest =
        switch remaining {
        case 0: "it is the last day of a 365-day year"
        case 1: "1 day of a 365-day year remains after it"
        default: "\(remaining) days of a 365-day year remain after it"
        }
      return "\(when); \(rest)."
    case ...0:
      return "Days of the year are numbered from 1 (January 1), so there is no day \(n)."
    default:
      let length = [counted(n / 7, "week"), n % 7 == 0 ? nil : counted(n % 7, "day")]
        .compactMap { $0 }.joined(separator: " and ")
      let years = Int((Double(n) / 365.2425).rounded())
      let about = years <= 1 ? "about a year" : "about \(years) years"
      return
        "There is no day \(n) in a year, which has at most 366; \(n) days is \(length), or \(about)."
    }
  }

  // MARK: Year

  static func year(_ n: Int) -> String {
    let leap = n % 4 == 0 && (n % 100 != 0 || n % 400 == 0)
    let weekday = januaryFirstWeekday(n)
    if n == 0 {
      return
        "There is no year 0 between 1 BC and 1 AD; astronomers call 1 BC year 0, a leap year whose January 1 was a \(weekday)."
    }
    let name: String
    let century: UInt64
    let era: String
    if n > 0 {
      name = "\(n)"
      century = (UInt64(n.magnitude) - 1) / 100 + 1
      era = ""
    } else {
      let bc = UInt64(n.magnitude) + 1  // year −1 is 2 BC; `magnitude` keeps Int.min in range
      // Years before 1 AD are counted astronomically, with a year 0 for 1 BC: say so, or
      // "-1 is 2 BC" reads as a mistake.
      name = "Year \(n) (astronomical numbering, in which year 0 is 1 BC) is \(bc) BC, which"
      century = (bc - 1) / 100 + 1
      era = " BC"
    }
    let kind = leap ? "a leap year" : "not a leap year"
    return
      "\(name) is \(kind) in the \(NumberTheory.ordinal(century)) century\(era); in the Gregorian calendar, January 1 of that year is a \(weekday)."
  }

  /// The weekday of January 1 of astronomical year `n` in the proleptic Gregorian calendar.
  /// The calendar repeats every 400 years, so any year maps to one in 2000…2399.
  static func januaryFirstWeekday(_ n: Int) -> String {
    let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    let y = 2000 + ((n % 400) + 400) % 400 - 1  // Sakamoto's method: January counts as year − 1
    let day = (y + y / 4 - y / 100 + y / 400 + 1) % 7
    return names[day]
  }

  /// `1 week`, `2 weeks`.
  private static func counted(_ value: Int, _ unit: String) -> String {
    "\(value) \(unit)\(value == 1 ? "" : "s")"
  }

  private static func list(_ items: [String]) -> String {
    switch items.count {
    case 0: ""
    case 1: items[0]
    default: items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
  }
}
