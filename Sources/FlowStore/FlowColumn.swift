import Audit
import AuditRules

/// The `flows` table's columns, in the table's order: the one description of a flow's row.
/// `upsertFlow` writes, and every query selects and reads, through these names; a test holds
/// them against the table the migrations make (whose SQL, once shipped, is never edited).
enum FlowColumn: Int, TableColumns {
  case id, session, `protocol`
  case addrA, portA, addrB, portB
  case firstSeen, lastSeen, bytesOut, bytesIn, packetCount
  case tlsStatus, sni, dnsName, dnsOtherNames, streamOpening
  case clientVersionsForm, clientVersions, clientAlpn, clientAlpnDropped, clientEch
  case serverAnswer, serverVersion, serverCipher, serverFromHrr, serverSource, serverAlert
  case quicVersion, quicEnd
  case certVisibility, certAbsence, certChainComplete
  case auditSessionId
  case tlsStatusBasis
  case connectHost
  case continuedFrom, dnsQuestions
  case clientCipherSuites, clientExtensions, clientJa4
  case serverGroup, serverDhBits, serverSignature, serverExtensions, serverCompression
  case certKeyAlgorithm, certKeyBits, certKeyCurve, certSignature, certKeySource
  case httpHost
  case beganBeforeCapture
  case streamConflicts
  case clientAuthentication

  /// The column's name in SQL.
  var name: String { Self.names[rawValue] }

  private static let names = allCases.map(\.snakeCaseIdentifier)

  /// What `upsertFlow` writes: all but the row's key and the audit session, which the store tags.
  static let written = allCases.filter { $0 != .id && $0 != .auditSessionId }

  /// What a row keeps from its insert on: the capture session, the connection's ends, when it began
  /// and the row it continues. An update that finds them as they are sets the others alone, so the
  /// indexes over these are left untouched (most of what updating a row cost).
  static let kept: [FlowColumn] = [
    .session, .protocol, .addrA, .portA, .addrB, .portB, .firstSeen, .continuedFrom,
  ]

  /// What an update of a row whose `kept` columns are unchanged sets.
  static let updated = written.filter { !kept.contains($0) }

  /// Every column, for a SELECT whose rows `FlowRow.flow(from:)` reads.
  static let selectList = allCases.map(\.name).joined(separator: ", ")
}
