import Audit

/// Why a value cannot be planted: what would match by chance, or not at all.
public enum TestDataProblem: Error, Sendable, Hashable {
  case emptyLabel
  /// Shorter than `TestDataRules.shortestValue` characters.
  case tooShort(Int)
  /// Only digits (and a separator), fewer than `TestDataRules.fewestDigits`: such numbers stand
  /// in traffic by chance (ports, sizes, times).
  case bareNumber(digits: Int)
  /// A location that is not "latitude,longitude" in decimal degrees.
  case notCoordinates
  /// A line break or another control character, which no request carries as planted.
  case controlCharacter
}

/// What may be planted: a value long and distinctive enough that finding it means it was sent.
public enum TestDataRules {
  public static let shortestValue = 4
  public static let fewestDigits = 6

  public static func problem(label: String, value: String, category: TestDataCategory)
    -> TestDataProblem?
  {
    if label.trimmingCharacters(in: .whitespaces).isEmpty { return .emptyLabel }
    if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      return .controlCharacter
    }
    if category == .location {
      return TestDataValue(label: label, value: value, category: category).coordinates == nil
        ? .notCoordinates : nil
    }
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if trimmed.count < shortestValue { return .tooShort(trimmed.count) }
    let digits = trimmed.filter { $0.isASCII && $0.isNumber }.count
    let separators = trimmed.filter { $0 == "." || $0 == "," }.count
    if digits + separators == trimmed.count, separators <= 1, digits < fewestDigits {
      return .bareNumber(digits: digits)
    }
    return nil
  }
}
