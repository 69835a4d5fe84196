import Audit

/// What a finding states: its kind, and what it is stated about. Every kind fills the same
/// fields (findings.json's), so a new kind adds a constructor in its check's file, not a case here.
public struct FindingEvidence: Sendable, Hashable {
  public let kind: FindingKind
  /// The host it is stated about, normalised.
  public let host: String?
  /// The TLS version it is stated about, and where it was read.
  public let tls: TLSVersionObservation?
  /// Which of the kind's variants it is (a key the kind's check defines): "http", "noClientHelloRead".
  public let reason: String?
  /// The TLS parameter it is stated about, judged against the TLS document.
  public let parameter: TLSParameterObservation?
  /// The TLS client's fingerprint (JA4) it is stated about.
  public let fingerprint: String?
  /// The tracker list and rule that named its host.
  public let tracker: TrackerMatch?
  /// The test account's value it is stated about (by its label).
  public let testData: TestDataSubject?
  /// The request it is stated about, as its line's method and path ("POST /v1/diary").
  public let request: String?
  /// What a server's scan found it to offer, judged.
  public let offer: ServerOffer?

  public init(
    kind: FindingKind, host: String? = nil, tls: TLSVersionObservation? = nil,
    reason: String? = nil, parameter: TLSParameterObservation? = nil, fingerprint: String? = nil,
    tracker: TrackerMatch? = nil, testData: TestDataSubject? = nil, request: String? = nil,
    offer: ServerOffer? = nil
  ) {
    self.offer = offer
    self.request = request
    self.testData = testData
    self.tracker = tracker
    self.parameter = parameter
    self.fingerprint = fingerprint
    self.kind = kind
    self.host = host
    self.tls = tls
    self.reason = reason
  }
}

extension FindingEvidence {
  /// The same statement about no host: what it says beyond the host it is about.
  public var withoutHost: FindingEvidence {
    FindingEvidence(
      kind: kind, tls: tls, reason: reason, parameter: parameter, fingerprint: fingerprint,
      tracker: tracker, testData: testData, request: request, offer: offer)
  }
}

public struct Finding: Sendable, Hashable {
  /// The evidence behind one reference: an assessment lists each requirement's findings, and
  /// 390 bytes of evidence copied into each list held a megabyte of a session's 2 400 findings.
  /// The classifier's accumulator hands over the one it made.
  private let held: Indirect<FindingEvidence>
  /// What is stated.
  public var evidence: FindingEvidence { held.value }
  /// The flows that prove it, as they happened; never empty.
  public let flowIDs: [Int64]
  public init(evidence: FindingEvidence, flowIDs: [Int64]) {
    self.init(held: Indirect(evidence), flowIDs: flowIDs)
  }
  init(held: Indirect<FindingEvidence>, flowIDs: [Int64]) {
    precondition(!flowIDs.isEmpty, "a finding is proved by at least one flow")
    self.held = held
    self.flowIDs = flowIDs
  }
  public var kind: FindingKind { evidence.kind }
}

/// The flows a check could not look at, for one reason.
public struct UnassessedFlows<Gap: Sendable & Hashable>: Sendable, Hashable {
  public let gap: Gap
  public let flowIDs: FlowIDList
  public init(gap: Gap, flowIDs: FlowIDList) {
    self.gap = gap
    self.flowIDs = flowIDs
  }
}

/// How far one check got over a session's flows. With the flows behind the check's
/// findings, the three lists add up to the session's flows.
public struct CheckCoverage<Gap: Sendable & Hashable>: Sendable, Hashable {
  /// Looked at, nothing to report.
  public let satisfiedFlowIDs: FlowIDList
  /// Applicable, could not be looked at: why. In the order the reasons first appeared.
  public let unassessed: [UnassessedFlows<Gap>]
  /// Not what this check looks at.
  public let notApplicableFlowIDs: FlowIDList

  public init(
    satisfiedFlowIDs: FlowIDList, unassessed: [UnassessedFlows<Gap>],
    notApplicableFlowIDs: FlowIDList
  ) {
    self.satisfiedFlowIDs = satisfiedFlowIDs
    self.unassessed = unassessed
    self.notApplicableFlowIDs = notApplicableFlowIDs
  }

  public var unassessedCount: Int { unassessed.reduce(0) { $0 + $1.flowIDs.count } }
}

/// The minimum TLS version findings are measured against, and the TLS document's
/// recommendations the parameters are.
public struct FindingsPolicy: Sendable, Hashable {
  public let minimumTLSVersion: TLSProtocolVersion
  /// nil when the catalogue carries none: the parameters are then not assessed.
  public var tlsRecommendations: TLSRecommendations?
  /// The document they come from, as cited: "BSI TR-02102-2 (2025-01)".
  public var tlsDocument: String = ""
  /// nil unless a published version.
  public init?(minimumTLSVersion: TLSProtocolVersion) {
    guard minimumTLSVersion.isPublished else { return nil }
    self.minimumTLSVersion = minimumTLSVersion
  }
}

/// Which of the test account's values a finding is about: its label and category (never the value:
/// findings.json names what was planted, exchanges.json where it went).
public struct TestDataSubject: Sendable, Hashable {
  public let label: String
  public let category: TestDataCategory
  public init(label: String, category: TestDataCategory) {
    self.label = label
    self.category = category
  }
}
