import AuditRules

/// Which findings cite each flow ("F1", "F2"… as flows.json and the host inventory state them):
/// one list of (flow, finding) pairs sorted by flow, looked up by halving. A dictionary of an
/// array per flow held 1.3 MB over 20 000 flows until the export's end.
public struct FindingCitations: Sendable, Hashable {
  private let flows: [Int64]
  private let places: [Int32]
  /// The findings' identifiers by place, each made once.
  private let identifiers: [String]

  public init(_ findings: [Finding]) {
    var pairs: [(flow: Int64, place: Int32)] = []
    pairs.reserveCapacity(findings.reduce(0) { $0 + $1.flowIDs.count })
    for (place, finding) in findings.enumerated() {
      for flow in finding.flowIDs { pairs.append((flow, Int32(place))) }
    }
    pairs.sort { ($0.flow, $0.place) < ($1.flow, $1.place) }
    flows = pairs.map(\.flow)
    places = pairs.map(\.place)
    identifiers = findings.indices.map(FindingsDocument.identifier)
  }

  /// The places (in the bundle's findings) of those citing flow `id`, in their order.
  public func places(ofFlow id: Int64) -> ArraySlice<Int32> {
    var low = 0
    var high = flows.count
    while low < high {
      let middle = (low + high) / 2
      if flows[middle] < id { low = middle + 1 } else { high = middle }
    }
    var end = low
    while end < flows.count, flows[end] == id { end += 1 }
    return places[low..<end]
  }

  /// The identifiers of the findings citing flow `id`, in their order.
  public func identifiers(ofFlow id: Int64) -> [String] {
    places(ofFlow: id).map { identifiers[Int($0)] }
  }

  /// The identifier of the finding at `place`.
  public func identifier(_ place: Int32) -> String { identifiers[Int(place)] }
}
