import Audit
import AuditRules

/// What is said of the test account's values: refusals, the list, what was planted.
public enum TestDataWording {
  public static func refusal(_ problem: TestDataProblem) -> String {
    switch problem {
    case .emptyLabel:
      return "A value needs a label that says what it is, as in “e-mail” or “diagnosis”."
    case .tooShort(let count):
      return
        "That value has \(Quantity.count(count, "character")); a value shorter than \(TestDataRules.shortestValue) characters stands in traffic by chance, so finding it would prove nothing. Plant a longer one."
    case .bareNumber(let digits):
      return
        "A bare number of \(Quantity.count(digits, "digit")) stands in traffic by chance (ports, sizes, times), so finding it would prove nothing; plant one of at least \(TestDataRules.fewestDigits) digits, or with its unit as the app sends it."
    case .notCoordinates:
      return
        "A location is written “latitude,longitude” in decimal degrees, as in 52.520008,13.404954."
    case .controlCharacter:
      return "A value holds no line break or other control character; plant it as the app sends it."
    }
  }

  public static func added(_ value: TestDataValue, project: String) -> String {
    "The test account's \(value.label) (\(value.category.rawValue)) is looked for in what \(project)'s sessions sent."
  }

  public static func removed(_ label: String, project: String) -> String {
    "The test account's \(label) is no longer looked for in \(project)'s sessions."
  }

  public static func none(project: String) -> String {
    "\(project) has no test account values yet: 'tunnelvision project data \(project) add LABEL VALUE' plants one."
  }

  /// Said where the values are listed: whose they are.
  public static let whose =
    "These are the test account's values, chosen for the test: what is looked for in the requests the app sent."

  public static let noneLookedFor =
    "No test account value is planted for the project: nothing is looked for in what was sent ('tunnelvision project data PROJECT add LABEL VALUE')."

  public static func lookedFor(_ labels: [String]) -> String {
    "Looked for: the test account's \(labels.joined(separator: ", "))."
  }
}
