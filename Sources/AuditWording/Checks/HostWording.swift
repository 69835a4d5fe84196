import Audit
import AuditRules

public enum HostWording: CheckWording {
  public typealias Rule = HostCheck
  public static let name = "Host"

  public static func statement(_ evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String {
    if evidence.kind == .streamConflict {
      return
        "A connection carried two different copies of the same bytes: the tool read the first, and which one the other end took cannot be told from the capture, so what was read of it (its name among it) may not be what that end received."
    }
    switch evidence.unnamedReason {
    case nil:
      return "A connection went to a host the project's allowlist does not cover."
    case .noClientHelloRead:
      return "A connection had no name: no ClientHello was read, and DNS gave its address no name."
    case .serverNameNotAnnounced:
      return
        "A connection had no name: its ClientHello announced no server name, and DNS gave its address none."
    case .encryptedClientHello:
      return
        "A connection had no name: its ClientHello carried Encrypted Client Hello, which hides the server name."
    }
  }

  public static func shortStatement(_ evidence: FindingEvidence) -> String {
    if evidence.kind == .streamConflict { return "Two different copies of the same bytes" }
    switch evidence.unnamedReason {
    case nil: return "Hosts outside the allowlist"
    case .noClientHelloRead: return "Without a host name: no ClientHello read"
    case .serverNameNotAnnounced: return "Without a host name: none announced"
    case .encryptedClientHello: return "Without a host name: Encrypted Client Hello"
    }
  }

  public static func reason(_ gap: HostGap) -> String {
    switch gap {
    case .allowlistEmpty:
      return "The project's allowlist is empty, so there is nothing to compare the name with."
    case .candidatesDisagree(true):
      return
        "DNS gave the address several names and the allowlist covers some of them; the name the connection was attributed to is covered."
    case .candidatesDisagree(false):
      return
        "DNS gave the address several names and the allowlist covers some of them; the name the connection was attributed to is not covered."
    case .beganBeforeCapture:
      return
        "The connection began before the capture or the recording did: its opening, where a name is read, was not seen, and no earlier row of it was found to continue."
    }
  }
}
