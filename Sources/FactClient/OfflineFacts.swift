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
    let parity = m % 2 == 0 ? "even" : "odd"
    var sentence: String
    switch m {
    case 0:
      return "0 is even, neither prime nor composite, and neither positive nor negative."
    case 1:
      sentence = "\(n) is odd and a unit: neither prime nor composite"
    default:
      if n > 0, NumberTheory.isPrime(m) {
        sentence = "\(n) is odd and prime"
        if m == 2 { sentence = "2 is the only even prime" }
      } else if n < 0, NumberTheory.isPrime(m) {
        sentence = "\(n) is \(parity), and its magnitude \(m) is prime"
      } else {
        let factors = NumberTheory.factorize(m).map { factor in
          factor.exponent == 1
            ? "\(factor.prime)" : "\(factor.prime)\(NumberTheory.superscript(factor.exponent))"
        }.joined(separator: " × ")
        sentence = "\(n) is \(parity) and factors as \(n < 0 ? "−1 × " : "")\(factors)"
      }
    }
    var extras: [String] = []
    if n > 1 {
      let root = NumberTheory.squareRoot(m)
      if root * root == m { extras.append("a perfect square (\(root)²)") }
    }
    let cubeRoot = NumberTheory.cubeRoot(m)
    if m > 1, cubeRoot * cubeRoot * cubeRoot == m {
      extras.append("a perfect cube (\(n < 0 ? "−" : "")\(cubeRoot)³)")
    }
    if n > 1, let index = NumberTheory.fibonacciIndex(m) {
      extras.append("the \(NumberTheory.ordinal(UInt64(index))) Fibonacci number")
    }
    if n > 1, let index = NumberTheory.triangularIndex(m) {
      extras.append("the \(NumberTheory.ordinal(index)) triangular number (1 + 2 + … + \(index))")
    }
    if n == .max { extras.append("the largest 64-bit Int (2⁶³ − 1)") }
    if n == .min {
      extras.append("the smallest 64-bit Int (−2⁶³), whose magnitude no Int can hold")
    }
    guard !extras.isEmpty else { return sentence + "." }
    return sentence + "; it is also " + list(extras) + "."
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
      if n > 1, let index = NumberTheory.fibonacciIndex(m) {
        headline = "\(n) is the \(NumberTheory.ordinal(UInt64(index))) Fibonacci number."
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

  private static let months = [
    ("January", 31), ("February", 29), ("March", 31), ("April", 30), ("May", 31),
    ("June", 30), ("July", 31), ("August", 31), ("September", 30), ("October", 31),
    ("November", 30), ("December", 31),
  ]

  /// "March 1" for day 61 of a leap year.
  private static func dayName(_ day: Int, leap: Bool) -> String {
    var rest = day
    for (month, length) in months {
      let days = month == "February" && !leap ? 28 : length
      if rest <= days { return "\(month) \(rest)" }
      rest -= days
    }
    return "December 31"
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
      return "\(when); \(remaining) days of a 365-day year remain after it."
    case ...0:
      return "Days of the year are numbered from 1 (January 1), so there is no day \(n)."
    default:
      let weeks = n / 7
      let years = n / 365
      return
        "There is no day \(n) in a year, which has at most 366; \(n) days is \(weeks) weeks and \(n % 7) days, or about \(years) years."
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
      name = "\(bc) BC"
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

  private static func list(_ items: [String]) -> String {
    switch items.count {
    case 0: ""
    case 1: items[0]
    default: items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
  }
}
