import Audit
import Foundation

/// Finds the test account's values in what exchanges sent: every value in every form in one
/// pass over each part of a request (`PatternAutomaton`), a hit kept only where its case matches
/// (where case matters) and the bytes beside it do not continue it; a location's latitude and
/// longitude within `coordinateTolerance` anywhere in the same request.
public struct ContentMatcher: Sendable {
  public static var coordinateTolerance: Double { TestDataValue.coordinateTolerance }

  let patterns: [ValuePattern]
  let automaton: PatternAutomaton
  let locations: [(label: String, latitude: Double, longitude: Double)]

  public init(values: [TestDataValue]) {
    var patterns: [ValuePattern] = []
    var locations: [(String, Double, Double)] = []
    for value in values {
      if let (latitude, longitude) = value.coordinates {
        locations.append((value.label, latitude, longitude))
      } else {
        patterns += ValueForms.patterns(of: value)
      }
    }
    self.patterns = patterns
    self.locations = locations
    automaton = PatternAutomaton(patterns: patterns.map { $0.bytes.map(PatternAutomaton.fold) })
  }

  /// How many patterns the values gave (each form of each value), for what the bench says.
  public var patternCount: Int { patterns.count }

  /// The values found in what the exchange sent, each (value, form, place) once, in order.
  public func matches(in exchange: HTTPExchange) -> [ContentMatch] {
    // Where forms of one value coincide (as is, and case-folded, at the same bytes), the plainest
    // names the match.
    struct Hit: Hashable {
      let label: String
      let place: MatchPlace
      let range: Range<Int>
    }
    var hits: [Hit: ValueForm] = [:]
    let fields = RequestFields.of(exchange)
    for field in fields {
      field.bytes.withUnsafeBufferPointer { bytes in
        automaton.scan(bytes) { index, end in
          let pattern = patterns[index]
          let start = end - pattern.bytes.count
          guard accepts(pattern, bytes, start, end) else { return }
          let hit = Hit(
            label: pattern.label, place: field.place(of: start..<end), range: start..<end)
          hits[hit] = min(hits[hit] ?? pattern.form, pattern.form)
        }
      }
    }
    var found = Set(
      hits.map { ContentMatch(label: $0.key.label, form: $0.value, place: $0.key.place) })
    if !locations.isEmpty { found.formUnion(coordinates(in: fields)) }
    return found.sorted()
  }

  func accepts(
    _ pattern: ValuePattern, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  )
    -> Bool
  {
    if pattern.caseMatters {
      for k in 0..<pattern.bytes.count where bytes[start + k] != pattern.bytes[k] { return false }
    }
    let boundary = pattern.boundary
    if start > 0, !boundary.stops(bytes[start - 1]), !boundary.stops(pattern.bytes[0]) {
      return false
    }
    if end < bytes.count, !boundary.stops(bytes[end]),
      !boundary.stops(pattern.bytes[pattern.bytes.count - 1])
    {
      return false
    }
    return true
  }

  /// A location is found where a number within the tolerance of its latitude and another within
  /// that of its longitude stand in the same request; its place is the latitude's.
  func coordinates(in fields: [RequestField]) -> [ContentMatch] {
    var numbers: [(value: Double, place: MatchPlace)] = []
    for field in fields {
      for (value, range) in DecimalNumbers.in(field.bytes) {
        numbers.append((value, field.place(of: range)))
      }
    }
    let tolerance = Self.coordinateTolerance
    return locations.compactMap { location in
      guard
        let latitude = numbers.firstIndex(where: { abs($0.value - location.latitude) <= tolerance }
        ),
        numbers.indices.contains(where: {
          $0 != latitude && abs(numbers[$0].value - location.longitude) <= tolerance
        })
      else { return nil }
      return ContentMatch(label: location.label, form: .coordinates, place: numbers[latitude].place)
    }
  }
}

/// The decimal numbers written with a fraction ("52.5200", "-13.40"), as coordinates are sent.
enum DecimalNumbers {
  static func `in`(_ bytes: [UInt8]) -> [(Double, Range<Int>)] {
    var found: [(Double, Range<Int>)] = []
    var i = 0
    while i < bytes.count {
      let start = i
      var j = i
      if bytes[j] == 0x2D { j += 1 }
      let integerStart = j
      while j < bytes.count, bytes[j] &- 0x30 < 10 { j += 1 }
      guard j > integerStart, j < bytes.count, bytes[j] == 0x2E,
        start == 0 || !isNumberByte(bytes[start - 1])
      else {
        i = max(j, i + 1)
        continue
      }
      j += 1
      let fractionStart = j
      while j < bytes.count, bytes[j] &- 0x30 < 10 { j += 1 }
      if j - fractionStart >= 2,
        let value = Double(String(decoding: bytes[start..<j], as: UTF8.self))
      {
        found.append((value, start..<j))
      }
      i = j
    }
    return found
  }

  static func isNumberByte(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 || byte == 0x2E }
}
