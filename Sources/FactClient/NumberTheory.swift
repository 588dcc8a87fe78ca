import Foundation

/// Integer facts for any 64-bit magnitude, computed without overflow.
///
/// Everything works on `UInt64` magnitudes, so `Int.min` (whose magnitude does not fit an
/// `Int`) is handled like any other number.
enum NumberTheory {
  static func mulmod(_ a: UInt64, _ b: UInt64, _ modulus: UInt64) -> UInt64 {
    let product = (a % modulus).multipliedFullWidth(by: b % modulus)
    return modulus.dividingFullWidth(product).remainder
  }

  static func powmod(_ base: UInt64, _ exponent: UInt64, _ modulus: UInt64) -> UInt64 {
    var result: UInt64 = 1 % modulus
    var base = base % modulus
    var exponent = exponent
    while exponent > 0 {
      if exponent & 1 == 1 { result = mulmod(result, base, modulus) }
      base = mulmod(base, base, modulus)
      exponent >>= 1
    }
    return result
  }

  /// Miller–Rabin with the first twelve primes as bases: exact for every 64-bit number.
  static func isPrime(_ n: UInt64) -> Bool {
    if n < 2 { return false }
    let bases: [UInt64] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
    for p in bases where n % p == 0 { return n == p }
    var d = n - 1
    var shifts = 0
    while d & 1 == 0 {
      d >>= 1
      shifts += 1
    }
    witness: for a in bases {
      var x = powmod(a, d, n)
      if x == 1 || x == n - 1 { continue }
      for _ in 1..<max(shifts, 1) {
        x = mulmod(x, x, n)
        if x == n - 1 { continue witness }
      }
      return false
    }
    return true
  }

  static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
  }

  /// A non-trivial factor of an odd composite `n` (Pollard's rho, Brent's variant).
  private static func splitFactor(_ n: UInt64) -> UInt64 {
    var c: UInt64 = 1
    while true {
      var y: UInt64 = 2
      var x: UInt64 = 2
      var factor: UInt64 = 1
      var product: UInt64 = 1
      var length = 1
      var saved: UInt64 = 2
      while factor == 1 {
        x = y
        for _ in 0..<length { y = (mulmod(y, y, n) &+ c) % n }
        var done = 0
        while done < length, factor == 1 {
          saved = y
          for _ in 0..<min(128, length - done) {
            y = (mulmod(y, y, n) &+ c) % n
            product = mulmod(product, x > y ? x - y : y - x, n)
          }
          factor = gcd(product, n)
          done += 128
        }
        length *= 2
      }
      if factor == n {
        // The batch overshot: step one at a time from the saved point.
        repeat {
          saved = (mulmod(saved, saved, n) &+ c) % n
          factor = gcd(x > saved ? x - saved : saved - x, n)
        } while factor == 1
      }
      if factor != n { return factor }
      c += 1
    }
  }

  /// The prime factorization of `n` (≥ 2), as ascending primes with their exponents.
  static func factorize(_ n: UInt64) -> [(prime: UInt64, exponent: Int)] {
    var primes: [UInt64] = []
    var rest = n
    for p: UInt64 in [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47] {
      while rest % p == 0 {
        primes.append(p)
        rest /= p
      }
    }
    var stack = rest > 1 ? [rest] : []
    while let m = stack.popLast() {
      if isPrime(m) {
        primes.append(m)
      } else {
        let factor = splitFactor(m)
        stack.append(factor)
        stack.append(m / factor)
      }
    }
    primes.sort()
    var result: [(prime: UInt64, exponent: Int)] = []
    for p in primes {
      if let last = result.last, last.prime == p {
        result[result.count - 1].exponent += 1
      } else {
        result.append((p, 1))
      }
    }
    return result
  }

  /// The largest r with r² ≤ n.
  static func squareRoot(_ n: UInt64) -> UInt64 {
    var r = UInt64(Double(n).squareRoot())
    while r > 0, r.multipliedReportingOverflow(by: r).overflow || r * r > n { r -= 1 }
    while case (let square, false) = (r + 1).multipliedReportingOverflow(by: r + 1), square <= n {
      r += 1
    }
    return r
  }

  /// The largest r with r³ ≤ n.
  static func cubeRoot(_ n: UInt64) -> UInt64 {
    func cube(_ r: UInt64) -> UInt64? {
      let (square, o1) = r.multipliedReportingOverflow(by: r)
      let (cube, o2) = square.multipliedReportingOverflow(by: r)
      return o1 || o2 ? nil : cube
    }
    // The floating-point estimate is within one of the answer; correct it exactly.
    var r = UInt64(Foundation.cbrt(Double(n)))
    while r > 0, (cube(r) ?? .max) > n { r -= 1 }
    while let next = cube(r + 1), next <= n { r += 1 }
    return r
  }

  /// F(0) = 0, F(1) = 1, … every Fibonacci number that fits in 64 bits (F(0) to F(93)).
  static let fibonacci: [UInt64] = {
    var numbers: [UInt64] = [0, 1]
    while case (let next, false) = numbers[numbers.count - 1].addingReportingOverflow(
      numbers[numbers.count - 2])
    {
      numbers.append(next)
    }
    return numbers
  }()

  /// The largest k with F(k) = n, if n is a Fibonacci number.
  static func fibonacciIndex(_ n: UInt64) -> Int? {
    fibonacci.lastIndex(of: n)
  }

  /// The k with 1 + 2 + … + k = n, if there is one (k ≥ 1).
  static func triangularIndex(_ n: UInt64) -> UInt64? {
    guard n > 0 else { return nil }
    // k(k + 1) = 2n, in 128 bits so that 2n cannot overflow.
    let target = UInt128(n) * 2
    var k = UInt128(Double(target).squareRoot())
    while k * (k + 1) > target { k -= 1 }
    while (k + 1) * (k + 2) <= target { k += 1 }
    return k * (k + 1) == target ? UInt64(k) : nil
  }

  /// Roman numerals, for 1 to 3999.
  static func roman(_ n: UInt64) -> String? {
    guard (1...3999).contains(n) else { return nil }
    let symbols: [(UInt64, String)] = [
      (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
      (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ]
    var rest = n
    var text = ""
    for (value, symbol) in symbols {
      while rest >= value {
        text += symbol
        rest -= value
      }
    }
    return text
  }

  static func digitSum(_ n: UInt64) -> UInt64 {
    var (rest, sum) = (n, UInt64(0))
    while rest > 0 {
      sum += rest % 10
      rest /= 10
    }
    return sum
  }

  /// 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st…
  static func ordinal(_ n: UInt64) -> String {
    let suffix: String
    switch (n % 10, n % 100) {
    case (_, 11...13): suffix = "th"
    case (1, _): suffix = "st"
    case (2, _): suffix = "nd"
    case (3, _): suffix = "rd"
    default: suffix = "th"
    }
    return "\(n)\(suffix)"
  }

  static func superscript(_ n: Int) -> String {
    let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
    return String(String(n).compactMap { $0.wholeNumberValue.map { digits[$0] } })
  }
}
