/// Every sentence the bundle writes, in one place. Each is a limit an earlier check set:
/// a sentence states what the traffic showed and carries no data (the host and the version
/// are in their own fields). None says passed, compliant or fulfilled; a test holds that.
public enum EvidenceWording {
  // MARK: Findings

  public static func statement(of evidence: FindingEvidence, minimum: TLSProtocolVersion) -> String
  {
    switch evidence {
    case .weakTLSVersion(let observation):
      let base = "A server negotiated a TLS version below the catalogue's minimum, \(minimum.name)."
      return observation.basis == .upstreamConnection
        ? base
          + " It was negotiated with the tunnel's own connection to the server, not with the app."
        : base
    case .cleartextTraffic:
      return "An HTTP request was observed in the clear."
    case .hostNotInAllowlist:
      return "A connection went to a host the project's allowlist does not cover."
    case .unnamedFlow(.noClientHelloRead):
      return "A connection had no name: no ClientHello was read, and DNS gave its address no name."
    case .unnamedFlow(.serverNameNotAnnounced):
      return
        "A connection had no name: its ClientHello announced no server name, and DNS gave its address none."
    case .unnamedFlow(.encryptedClientHello):
      return
        "A connection had no name: its ClientHello carried Encrypted Client Hello, which hides the server name."
    case .pinningAbsent:
      return
        "A connection to this host accepted a certificate issued by the local CA: for this host, a user-installed root is trusted."
    case .pinningObserved:
      return
        "A connection to this host refused the local CA's certificate. The refusal may predate the session (an earlier refusal can stop the inspection of later connections)."
    case .activityBeforeConsent:
      return "A connection began before the earliest Consent given marker of the session."
    }
  }

  // MARK: Verdicts

  /// A verdict in a symbol and a word, for a table read at a glance: never colour alone, and
  /// never a word that passes or fails.
  public static func verdictMark(_ verdict: RequirementVerdict) -> String {
    switch verdict {
    case .contradicted: return "✗ Contradicted"
    case .observedWithoutContradiction: return "● Observed without contradiction"
    case .notAssessed(.outsideToolScope): return "○ Not assessed by this tool"
    case .notAssessed(.nothingObserved): return "– Not assessed: nothing observed"
    }
  }

  public static func verdict(_ verdict: RequirementVerdict) -> String {
    switch verdict {
    case .contradicted:
      return "Contradicted: the session holds findings against this requirement."
    case .observedWithoutContradiction:
      return
        "Observed without contradiction: what this tool looks at for this requirement was seen, and nothing in it runs against the requirement."
    case .notAssessed(.outsideToolScope):
      return "Not assessed by this tool."
    case .notAssessed(.nothingObserved):
      return
        "Not assessed: nothing this tool looks at for this requirement was observed in the session."
    }
  }

  public static let verdictsNote =
    "A verdict here is not one of the four test results of TR-03161-1 (its table 3), which are the assessor's to give. It states what the recorded traffic showed against each requirement, within what the requirement's toolCoverage says this tool looks at. None states that a requirement is met: that judgement is the assessor's, on all the evidence."

  // MARK: Why a check could not look at a flow

  public static func gap(_ gap: TLSVersionGap) -> String {
    switch gap {
    case .appNegotiationNotObserved(let offer):
      let head = "The version was read only from the tunnel's own connection to the server"
      switch offer {
      case .clientHelloNotRead: return head + ", and the app's ClientHello was not read."
      case .versionsNotListed:
        return head
          + ", and the app's ClientHello offered every version up to its own, so what the app would have negotiated is not known."
      case .listsVersionBelowMinimum(let v):
        return head + ", and the app's ClientHello also offered \(v.name), below the minimum."
      case .listsUnpublishedVersion(let v):
        return head
          + ", and the app's ClientHello offered \(v.hex), which is not a published version."
      }
    case .unrecognisedVersion(let v):
      return
        "The server negotiated \(v.hex), which is not one of the five published SSL/TLS versions."
    case .serverRefused(let alert):
      return "The server answered with an alert (description \(alert)) instead of a ServerHello."
    case .quicVersionOnlyProposed:
      return "Only the QUIC version the client proposed was read, not the server's answer."
    case .unrecognisedQUICVersion(let v):
      return
        "QUIC version \(QUICReading(version: v, end: .client).versionName) is not known to carry TLS 1.3."
    case .serverAnswerNotRead:
      return "The server's answer was not read."
    }
  }

  public static func gap(_ gap: EncryptionGap) -> String {
    switch gap {
    case .unrecognisedOpening:
      return "The stream opened with bytes that are neither a TLS handshake nor an HTTP request."
    case .openingNotRead:
      return "The stream's opening was not read; the port alone says nothing about encryption."
    case .unrecognisedQUICVersion(let v):
      return
        "QUIC version \(QUICReading(version: v, end: .client).versionName) is not known to protect its packets."
    case .datagramsNotRead:
      return
        "No QUIC reading was made of the datagrams; the port alone says nothing about encryption."
    }
  }

  public static func gap(_ gap: HostGap) -> String {
    switch gap {
    case .allowlistEmpty:
      return "The project's allowlist is empty, so there is nothing to compare the name with."
    case .candidatesDisagree(true):
      return
        "DNS gave the address several names and the allowlist covers some of them; the name the connection was attributed to is covered."
    case .candidatesDisagree(false):
      return
        "DNS gave the address several names and the allowlist covers some of them; the name the connection was attributed to is not covered."
    }
  }

  public static func gap(_ gap: PinningGap) -> String {
    switch gap {
    case .inspectionOff: return "The session was recorded with HTTPS inspection off."
    case .caNotTrusted:
      return "The device did not trust the local certificate authority while the session recorded."
    case .outcomeWithoutAnnouncedName:
      return
        "An inspection outcome was recorded, but the ClientHello announced no name to state it about."
    case .quicNotInspected: return "QUIC connections are not inspected."
    case .noInspectionOutcome: return "No inspection outcome was recorded for this TLS connection."
    case .closedAfterHandshake:
      return
        "The connection completed its handshake with the proxy's certificate, then closed without sending a request: the app may check a pin in its own code after the handshake (as OkHttp's CertificatePinner does), or it had nothing to send; the traffic does not tell which."
    }
  }

  public static func gap(_ gap: ConsentGap) -> String {
    switch gap {
    case .noConsentMarker: return "No Consent given marker was placed in the session."
    case .betweenConsentMarkers:
      return "The connection began between the earliest and the latest Consent given marker."
    }
  }

  // MARK: The five checks

  public static func checkName(_ check: FindingsCheck) -> String {
    switch check {
    case .tlsVersion: return "TLS version"
    case .encryption: return "Encryption"
    case .host: return "Host"
    case .pinning: return "Certificate pinning"
    case .consent: return "Consent"
    }
  }

  /// The check's name inside a sentence: "the TLS version check".
  public static func checkNoun(_ check: FindingsCheck) -> String {
    check == .tlsVersion ? "TLS version" : checkName(check).lowercased()
  }

  /// Words that no sentence of the bundle may contain.
  public static let forbiddenWords = [
    "passed", "pass", "compliant", "compliance", "fulfilled", "fulfils", "fulfills",
  ]
}

/// Stable keys for the reasons a check could not look at a flow: what findings.json carries.
public enum GapKey {
  public static func key(_ gap: TLSVersionGap) -> String {
    switch gap {
    case .appNegotiationNotObserved(let offer):
      switch offer {
      case .clientHelloNotRead: return "appNegotiationNotObserved.clientHelloNotRead"
      case .versionsNotListed: return "appNegotiationNotObserved.versionsNotListed"
      case .listsVersionBelowMinimum: return "appNegotiationNotObserved.listsVersionBelowMinimum"
      case .listsUnpublishedVersion: return "appNegotiationNotObserved.listsUnpublishedVersion"
      }
    case .unrecognisedVersion: return "unrecognisedVersion"
    case .serverRefused: return "serverRefused"
    case .quicVersionOnlyProposed: return "quicVersionOnlyProposed"
    case .unrecognisedQUICVersion: return "unrecognisedQUICVersion"
    case .serverAnswerNotRead: return "serverAnswerNotRead"
    }
  }

  public static func key(_ gap: EncryptionGap) -> String {
    switch gap {
    case .unrecognisedOpening: return "unrecognisedOpening"
    case .openingNotRead: return "openingNotRead"
    case .unrecognisedQUICVersion: return "unrecognisedQUICVersion"
    case .datagramsNotRead: return "datagramsNotRead"
    }
  }

  public static func key(_ gap: HostGap) -> String {
    switch gap {
    case .allowlistEmpty: return "allowlistEmpty"
    case .candidatesDisagree(true): return "candidatesDisagree.attributedNameAllowed"
    case .candidatesDisagree(false): return "candidatesDisagree.attributedNameNotAllowed"
    }
  }

  public static func key(_ gap: PinningGap) -> String {
    switch gap {
    case .inspectionOff: return "inspectionOff"
    case .caNotTrusted: return "caNotTrusted"
    case .outcomeWithoutAnnouncedName: return "outcomeWithoutAnnouncedName"
    case .quicNotInspected: return "quicNotInspected"
    case .noInspectionOutcome: return "noInspectionOutcome"
    case .closedAfterHandshake: return "closedAfterHandshake"
    }
  }

  public static func key(_ gap: ConsentGap) -> String {
    switch gap {
    case .noConsentMarker: return "noConsentMarker"
    case .betweenConsentMarkers: return "betweenConsentMarkers"
    }
  }
}

/// A check's coverage with its reasons already worded: the one shape documents and screens read.
public struct CheckCoverageReport: Sendable, Hashable {
  public struct Reason: Sendable, Hashable {
    public let key: String
    public let sentence: String
    public let flowIDs: [Int64]
  }
  public let check: FindingsCheck
  public let flaggedFlowIDs: [Int64]
  public let satisfiedFlowIDs: [Int64]
  public let unassessed: [Reason]
  public let notApplicableFlowIDs: [Int64]
  public var unassessedCount: Int { unassessed.reduce(0) { $0 + $1.flowIDs.count } }
  public var total: Int {
    flaggedFlowIDs.count + satisfiedFlowIDs.count + unassessedCount + notApplicableFlowIDs.count
  }
}

extension SessionFindings {
  /// The five checks, each with its reasons worded, in the order of `FindingsCheck`.
  public var coverageReports: [CheckCoverageReport] {
    FindingsCheck.allCases.map { check in
      func make<Gap>(
        _ coverage: CheckCoverage<Gap>, key: (Gap) -> String, sentence: (Gap) -> String
      ) -> CheckCoverageReport {
        CheckCoverageReport(
          check: check, flaggedFlowIDs: flaggedFlowIDs(of: check),
          satisfiedFlowIDs: coverage.satisfiedFlowIDs,
          unassessed: coverage.unassessed.map {
            .init(key: key($0.gap), sentence: sentence($0.gap), flowIDs: $0.flowIDs)
          },
          notApplicableFlowIDs: coverage.notApplicableFlowIDs)
      }
      switch check {
      case .tlsVersion: return make(tlsVersion, key: GapKey.key, sentence: EvidenceWording.gap)
      case .encryption: return make(encryption, key: GapKey.key, sentence: EvidenceWording.gap)
      case .host: return make(host, key: GapKey.key, sentence: EvidenceWording.gap)
      case .pinning: return make(pinning, key: GapKey.key, sentence: EvidenceWording.gap)
      case .consent: return make(consent, key: GapKey.key, sentence: EvidenceWording.gap)
      }
    }
  }
}
