import Audit
import AuditWording

/// `project data NAME list`: the test account's values, as text and as JSON.
public enum TestDataPresentation {
  public static func text(_ values: [TestDataValue], project: String) -> String {
    guard !values.isEmpty else { return TestDataWording.none(project: project) + "\n" }
    var out = "Test account · \(TerminalText.inline(project))\n"
    out += TestDataWording.whose + "\n\n"
    let rows =
      [["LABEL", "CATEGORY", "VALUE"]] + values.map { [$0.label, $0.category.rawValue, $0.value] }
    out += TextColumns(maximumWidths: [0: 40, 2: 80]).lines(rows).joined(separator: "\n") + "\n"
    return out
  }

  public static func json(_ values: [TestDataValue]) -> JSONValue {
    .array(
      values.map {
        .object([
          "label": .string($0.label), "category": .string($0.category.rawValue),
          "value": .string($0.value),
        ])
      })
  }
}
