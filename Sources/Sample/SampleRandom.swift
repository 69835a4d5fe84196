import Foundation

/// SplitMix64: a small deterministic generator, so the same seed writes the same bytes.
public struct SampleRandom: Sendable {
  private var state: UInt64
  public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A value in 0..<bound.
  public mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

  /// `count` bytes that look like ciphertext.
  public mutating func bytes(_ count: Int) -> Data {
    var data = Data(count: count)
    data.withUnsafeMutableBytes { raw in
      var i = 0
      while i + 8 <= count {
        raw.storeBytes(of: next(), toByteOffset: i, as: UInt64.self)
        i += 8
      }
      if i < count {
        var last = next()
        withUnsafeBytes(of: &last) { for j in 0..<(count - i) { raw[i + j] = $0[j] } }
      }
    }
    return data
  }
}
