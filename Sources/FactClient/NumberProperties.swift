import Foundation

extension NumberTheory {
  /// Every divisor of `n` (≥ 1) up to `limit`, ascending.
  static func divisors(_ n: UInt64, upTo limit: UInt64 = .max) -> [UInt64] {
    guard n > 1 else { return n == 1 ? [1] : [] }
    var divisors: [UInt64] = [1]
    for (prime, exponent) in factorize(n) {
      var grown: [UInt64] = []
      for divisor in divisors {
        var value = divisor
        grown.append(value)
        for _ in 0..<exponent {
          let (next, overflow) = value.multipliedReportingOverflow(by: prime)
          guard !overflow, next <= limit else { break }
          value = next
          grown.append(value)
        }
      }
      divisors = grown
    }
    return divisors.sorted()
  }

  /// The sum of the divisors of `n` other than `n`, in 128 bits: it can exceed `n`.
  static func properDivisorSum(_ n: UInt64) -> UInt128 {
    guard n > 1 else { return 0 }
    // σ(n) = ∏ (p^(e+1) − 1) / (p − 1), each factor a geometric sum.
    var sigma: UInt128 = 1
    for (prime, exponent) in factorize(n) {
      var term: UInt128 = 1
      var power: UInt128 = 1
      for _ in 0..<exponent {
        power *= UInt128(prime)
        term += power
      }
      sigma *= term
    }
    return sigma - UInt128(n)
  }

  /// Every way to write `n` as a³ + b³ with 1 ≤ a ≤ b, smallest a first.
  ///
  /// a³ + b³ = (a + b)(a² − ab + b²), so s = a + b divides n and s³ ≤ 4n; for each such s,
  /// ab = (s² − n/s) / 3, and a and b are the roots of x² − sx + ab. Quick for every
  /// 64-bit number, since it walks divisors, not cubes.
  static func sumsOfTwoCubes(_ n: UInt64) -> [(UInt64, UInt64)] {
    guard n >= 2 else { return [] }
    let limit = cubeRoot(n) * 2  // s ≤ ∛(4n) < 2∛n
    var pairs: [(UInt64, UInt64)] = []
    for s in divisors(n, upTo: limit) where s >= 2 {
      let square = UInt128(s) * UInt128(s)
      let quotient = UInt128(n / s)
      guard square > quotient, (square - quotient) % 3 == 0 else { continue }
      let product = (square - quotient) / 3  // ab
      guard square >= 4 * product else { continue }
      let discriminant = square - 4 * product  // (b − a)²
      guard discriminant <= UInt128(UInt64.max) else { continue }
      let root = UInt128(squareRoot(UInt64(discriminant)))
      guard root * root == discriminant, (UInt128(s) - root) % 2 == 0 else { continue }
      let a = (UInt128(s) - root) / 2
      let b = a + root
      guard a >= 1 else { continue }
      pairs.append((UInt64(a), UInt64(b)))
    }
    return pairs.sorted { $0.0 < $1.0 }
  }

  /// 0! … 20!: every factorial that fits in 64 bits.
  static let factorials: [UInt64] = (1...20).reduce(into: [1]) { $0.append($0.last! * UInt64($1)) }

  /// C(0) … C(36): every Catalan number that fits in 64 bits.
  static let catalan: [UInt64] = {
    var numbers: [UInt128] = [1]
    while true {
      let k = UInt128(numbers.count - 1)
      let next = numbers[numbers.count - 1] * 2 * (2 * k + 1) / (k + 2)
      guard next <= UInt128(UInt64.max) else { break }
      numbers.append(next)
    }
    return numbers.map { UInt64($0) }
  }()

  /// The largest exponent k ≥ 2 with n = b^k, and that b; `nil` when n is no such power.
  static func perfectPower(_ n: UInt64) -> (base: UInt64, exponent: Int)? {
    guard n >= 4 else { return nil }
    for exponent in stride(from: 63, through: 2, by: -1) {
      let base = integerRoot(n, exponent)
      if base >= 2, power(base, exponent) == n { return (base, exponent) }
    }
    return nil
  }

  /// b^k, or `nil` when it overflows.
  static func power(_ base: UInt64, _ exponent: Int) -> UInt64? {
    var result: UInt64 = 1
    for _ in 0..<exponent {
      let (next, overflow) = result.multipliedReportingOverflow(by: base)
      if overflow { return nil }
      result = next
    }
    return result
  }

  /// The largest r with r^k ≤ n.
  static func integerRoot(_ n: UInt64, _ k: Int) -> UInt64 {
    var r = UInt64(Foundation.pow(Double(n), 1 / Double(k)))
    while r > 0, (power(r, k) ?? .max) > n { r -= 1 }
    while let next = power(r + 1, k), next <= n { r += 1 }
    return r
  }

  /// The digits of `n` in `radix`, most significant first.
  static func digits(_ n: UInt64, radix: UInt64 = 10) -> [UInt64] {
    guard n > 0 else { return [0] }
    var digits: [UInt64] = []
    var rest = n
    while rest > 0 {
      digits.append(rest % radix)
      rest /= radix
    }
    return digits.reversed()
  }

  static func isPalindrome(_ n: UInt64, radix: UInt64 = 10) -> Bool {
    let digits = digits(n, radix: radix)
    return digits == digits.reversed()
  }

  /// Whether repeatedly summing the squares of the digits reaches 1. Every unhappy number
  /// falls into the cycle through 4.
  static func isHappy(_ n: UInt64) -> Bool {
    var value = n
    while value != 1, value != 4, value != 0 {
      value = digits(value).reduce(0) { $0 + $1 * $1 }
    }
    return value == 1
  }

  /// The split of n² into a left and a right part that add up to n, if there is one
  /// (the right part not zero): 45² = 2025 and 20 + 25 = 45.
  static func kaprekarSplit(_ n: UInt64) -> (left: UInt128, right: UInt128)? {
    guard n > 1 else { return nil }
    let square = UInt128(n) * UInt128(n)
    var modulus: UInt128 = 10
    while modulus <= square {
      let (left, right) = square.quotientAndRemainder(dividingBy: modulus)
      if right > 0, left + right == UInt128(n) { return (left, right) }
      let (next, overflow) = modulus.multipliedReportingOverflow(by: 10)
      guard !overflow else { break }
      modulus = next
    }
    return nil
  }
}
