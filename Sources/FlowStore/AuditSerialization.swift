import Audit
import AuditRules

/// The integers the audit tables store for kinds. They are disk format: never renumbered.
enum AuditSerialization {
  static let baseline: Int64 = 0
  static let audit: Int64 = 1

  static func markerKind(_ kind: SessionMarkerKind) -> (Int64, String?) {
    switch kind {
    case .consentGiven: return (0, nil)
    case .loggedIn: return (1, nil)
    case .loggedOut: return (2, nil)
    case .custom(let label): return (3, label)
    case .consentWithdrawn: return (4, nil)
    }
  }

  static func markerKind(code: Int64, label: String?) -> SessionMarkerKind {
    switch code {
    case 0: return .consentGiven
    case 1: return .loggedIn
    case 2: return .loggedOut
    case 4: return .consentWithdrawn
    default: return .custom(label ?? "")
    }
  }
}
