import Foundation

/// What kind of the test account's data a value is: said beside it, and what decides the forms it
/// is looked for in (an e-mail address in any case, a phone number by its digits too).
public enum TestDataCategory: String, Sendable, Hashable, CaseIterable {
  case contact, identifier, health, location, device, other
}

/// One value of the test account, planted by the assessor: what is looked for in what the app
/// sent. It is the test account's, chosen for the test, never a person's.
public struct TestDataValue: Sendable, Hashable {
  /// What the assessor calls it ("e-mail", "diagnosis", "advertising ID"): unique in a project.
  public let label: String
  public let value: String
  public let category: TestDataCategory

  public init(label: String, value: String, category: TestDataCategory) {
    self.label = label
    self.value = value
    self.category = category
  }

  /// Degrees either way a reported coordinate may lie from the planted one (about 110 m of
  /// latitude): apps round, SDKs truncate.
  public static let coordinateTolerance = 0.001

  /// A location's value, "latitude,longitude" in decimal degrees; nil for any other.
  public var coordinates: (latitude: Double, longitude: Double)? {
    guard category == .location else { return nil }
    let parts = value.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
      (-90...90).contains(latitude), (-180...180).contains(longitude),
      parts.allSatisfy({ $0.allSatisfy { $0.isNumber || $0 == "." || $0 == "-" } })
    else { return nil }
    return (latitude, longitude)
  }
}
