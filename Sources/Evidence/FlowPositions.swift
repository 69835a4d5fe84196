/// Each flow's position in the bundle, looked up once per packet: an array indexed by id when the
/// session's ids lie close together (they are given in order as flows are recorded), else a dictionary.
struct FlowPositions {
  private let first: Int64
  private let dense: [Int32]
  private let sparse: [Int64: Int]

  init(_ ids: [Int64]) {
    let low = ids.min() ?? 0
    let high = ids.max() ?? 0
    let (span, overflow) = high.subtractingReportingOverflow(low)
    if !ids.isEmpty, !overflow, span < Int64(ids.count) * 4 + 1024 {
      var dense = [Int32](repeating: -1, count: Int(span) + 1)
      for (at, id) in ids.enumerated() { dense[Int(id - low)] = Int32(at) }
      (first, self.dense, sparse) = (low, dense, [:])
    } else {
      (first, dense, sparse) = (
        0, [], Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
      )
    }
  }

  subscript(id: Int64) -> Int? {
    if dense.isEmpty { return sparse[id] }
    let at = id &- first
    guard at >= 0, at < Int64(dense.count) else { return nil }
    let position = dense[Int(at)]
    return position < 0 ? nil : Int(position)
  }
}
