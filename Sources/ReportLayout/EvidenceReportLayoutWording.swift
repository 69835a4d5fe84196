import Foundation
import ReportModel

/// What the layout itself says: the title of a table again on a page it continues on.
public enum EvidenceReportLayoutWording {
  public static func continued(_ title: String) -> String { "\(title) (continued)" }
}
