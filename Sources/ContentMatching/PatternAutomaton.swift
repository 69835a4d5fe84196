/// Every pattern found in one pass over the bytes (Aho–Corasick): a state per prefix of a
/// pattern, its transitions complete (a deterministic automaton), so each byte costs one table
/// lookup whatever the number of patterns. Letters are folded to lower case as they are read:
/// patterns are given folded, and a hit of a pattern whose case matters is checked against the
/// bytes by its caller.
public struct PatternAutomaton: Sendable {
  /// A byte (folded) to its class: the bytes no pattern holds share class 0.
  private let classOf: [UInt8]
  private let classCount: Int
  /// state * classCount + class → the next state.
  private let next: [Int32]
  /// The patterns that end in each state (its own and those of its suffixes): `outputs` from
  /// `outputStart[state]` to `outputStart[state + 1]`.
  private let outputStart: [Int32]
  private let outputs: [Int32]
  /// Each pattern's length, by its index in the list given.
  public let lengths: [Int]

  /// ASCII's upper-case letters to lower case, every other byte as it is.
  @inline(__always) static func fold(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
  }

  /// `patterns` folded already (a pattern with an upper-case letter would never be found); an
  /// empty pattern is never found.
  public init(patterns: [[UInt8]]) {
    lengths = patterns.map(\.count)
    var present = [Bool](repeating: false, count: 256)
    for pattern in patterns { for byte in pattern { present[Int(byte)] = true } }
    var classes = [UInt8](repeating: 0, count: 256)
    var count = 1
    for byte in 0..<256 where present[byte] {
      precondition(count < 256, "fewer than 255 distinct bytes")
      classes[byte] = UInt8(count)
      count += 1
    }
    var classOf = [UInt8](repeating: 0, count: 256)
    for byte in 0..<256 { classOf[byte] = classes[Int(Self.fold(UInt8(byte)))] }
    self.classOf = classOf
    classCount = count

    // The trie: -1 for no child yet.
    var next = [Int32](repeating: -1, count: count)
    var own: [[Int32]] = [[]]
    for (index, pattern) in patterns.enumerated() where !pattern.isEmpty {
      var state = 0
      for byte in pattern {
        let slot = state * count + Int(classes[Int(byte)])
        if next[slot] < 0 {
          next[slot] = Int32(own.count)
          own.append([])
          next.append(contentsOf: repeatElement(-1, count: count))
        }
        state = Int(next[slot])
      }
      own[state].append(Int32(index))
    }
    // Breadth first: each state's failure is the longest proper suffix that is a state; a
    // missing transition goes where its failure's would.
    let states = own.count
    var failure = [Int32](repeating: 0, count: states)
    var queue: [Int] = []
    queue.reserveCapacity(states)
    for c in 0..<count {
      if next[c] < 0 {
        next[c] = 0
      } else {
        queue.append(Int(next[c]))
      }
    }
    var merged = own
    var head = 0
    while head < queue.count {
      let state = queue[head]
      head += 1
      merged[state] += merged[Int(failure[state])]
      for c in 0..<count {
        let slot = state * count + c
        let fallback = next[Int(failure[state]) * count + c]
        if next[slot] < 0 {
          next[slot] = fallback
        } else {
          failure[Int(next[slot])] = fallback
          queue.append(Int(next[slot]))
        }
      }
    }
    var start = [Int32](repeating: 0, count: states + 1)
    var flat: [Int32] = []
    for state in 0..<states {
      start[state] = Int32(flat.count)
      flat += merged[state]
    }
    start[states] = Int32(flat.count)
    self.next = next
    outputStart = start
    outputs = flat
  }

  /// Calls `hit` with each pattern found and the offset just past its end, in the order they end.
  public func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ hit: (_ pattern: Int, _ end: Int) -> Void)
  {
    guard !bytes.isEmpty else { return }
    classOf.withUnsafeBufferPointer { classOf in
      next.withUnsafeBufferPointer { next in
        outputStart.withUnsafeBufferPointer { outputStart in
          var state = 0
          let width = classCount
          for offset in 0..<bytes.count {
            state = Int(next[state &* width &+ Int(classOf[Int(bytes[offset])])])
            let from = Int(outputStart[state])
            let to = Int(outputStart[state &+ 1])
            if from != to {
              for k in from..<to { hit(Int(outputs[k]), offset + 1) }
            }
          }
        }
      }
    }
  }
}
