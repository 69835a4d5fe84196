import Audit
import AuditRules
import AuditWording

/// What findings.json says of a finding and of the checks: the identifiers F1, F2… and the JSON
/// shapes the screens (`findings --json`) reuse.
public enum FindingsDocument {
  /// "F1", "F2"… in the order of `SessionFindings.findings`.
  public static func identifier(_ index: Int) -> String { "F\(index + 1)" }

  public static func identifiers(of findings: [Finding], in all: [Finding]) -> [String] {
    guard !findings.isEmpty else { return [] }
    // By a map of the findings to their places, not a search of each (2,414 findings, some
    // citing a thousand flows, made that search a tenth of a second).
    let places = Dictionary(all.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    return findings.compactMap { places[$0].map(identifier) }
  }

  /// A verdict's stretches not recorded: how many, and their length to the millisecond (null
  /// while one still goes on).
  public static func unrecordedJSON(_ u: SessionCoverage.Unrecorded) -> JSONValue {
    .fields([
      SessionDocument.NotRecordedKey.stretches: .int(u.stretches),
      .seconds: u.seconds.map { .double(($0 * 1000).rounded() / 1000) } ?? .null,
    ])
  }

  /// A finding's connection whose row continues one of another session or of none.
  public static func earlierReadingJSON(_ r: EarlierReading) -> JSONValue {
    .fields([
      EarlierReadingKey.flowID: .int(r.flowID), .openedIn: .int(r.opening.flowID),
      .session: r.opening.session.map { .int($0) } ?? .null, .sentence: .string(r.sentence),
    ])
  }

  /// A finding's evidence as findings.json writes it: the same keys for every kind.
  public static func evidenceJSON(_ evidence: FindingEvidence) -> [String: JSONValue] {
    let fields: [FindingKey: JSONValue] = [
      .kind: .string(evidence.kind.rawValue), .host: .optional(evidence.host),
      .tls: evidence.tls.map { o in
        .fields([
          TLSReadingKey.version: .string(o.version.name),
          .versionValue: .int(o.version.rawValue), .source: .string(o.basis.rawValue),
        ])
      } ?? .null,
      .reason: .optional(evidence.reason),
      .parameter: evidence.parameter.map(parameterJSON) ?? .null,
      .fingerprint: .optional(evidence.fingerprint),
      .tracker: evidence.tracker.map {
        .fields([
          TrackerKey.list: .string($0.list), .date: .string($0.date), .rule: .string($0.rule),
        ])
      } ?? .null,
      .request: .optional(evidence.request),
      .offer: evidence.offer.map(offerJSON) ?? .null,
      .testData: evidence.testData.map {
        .fields([TestDataKey.label: .string($0.label), .category: .string($0.category.rawValue)])
      } ?? .null,
    ]
    return [String: JSONValue](fields: fields)
  }

  /// A TLS parameter finding's parameter: what it is (its code and IANA name), how the document
  /// stands on it, and where it was read.
  static func parameterJSON(_ o: TLSParameterObservation) -> JSONValue {
    var item: [ItemKey: JSONValue] = [.text: .string(TLSParameterWording.itemText(o.item))]
    switch o.item {
    case .cipherSuite(let value):
      item[.type] = .string("cipherSuite")
      item[.value] = .string(TLSRegistry.hex(value))
    case .group(let value):
      item[.type] = .string("group")
      item[.value] = .int(value)
    case .signatureScheme(let value):
      item[.type] = .string("signatureScheme")
      item[.value] = .string(TLSRegistry.hex(value))
    case .certificateSignature(let name, let scheme):
      item[.type] = .string("certificateSignature")
      item[.value] = .string(name)
      item[.scheme] = scheme.map { .string(TLSRegistry.hex($0)) } ?? .null
    case .certificateKey(let algorithm, let bits):
      item[.type] = .string("certificateKey")
      item[.value] = .string(algorithm)
      item[.bits] = .int(bits)
    case .dhPrime(let bits):
      item[.type] = .string("dhPrime")
      item[.bits] = .int(bits)
    case .extensionMissing(let value):
      item[.type] = .string("extensionMissing")
      item[.value] = .int(value)
    case .extensionUsed(let value):
      item[.type] = .string("extensionUsed")
      item[.value] = .int(value)
    case .compression(let method):
      item[.type] = .string("compression")
      item[.value] = .int(method)
    case .earlyData:
      item[.type] = .string("earlyData")
    }
    return .fields([
      ParameterKey.item: .fields(item), .standing: standingJSON(o.standing),
      .version: .string(o.version.name), .leg: .string(o.leg.rawValue),
      .reference: .string(o.reference), .document: .string(o.document),
    ])
  }

  /// How the TLS document stands on an item: `is`, and the year or the bits it names.
  static func standingJSON(_ s: TLSParameterObservation.Standing) -> JSONValue {
    switch s {
    case .notListed: return .fields([StandingKey.is: .string("notListed")])
    case .recommendedUntil(let year):
      return .fields([StandingKey.is: .string("recommendedUntil"), .year: .int(year)])
    case .belowMinimum(let bits):
      return .fields([StandingKey.is: .string("belowMinimum"), .minimumBits: .int(bits)])
    case .advisedAgainst: return .fields([StandingKey.is: .string("advisedAgainst")])
    case .recommended: return .fields([StandingKey.is: .string("recommendedNotUsed")])
    }
  }

  /// A server configuration finding's offer: which server, when scanned, what it offered and
  /// how the document stands on it.
  static func offerJSON(_ offer: ServerOffer) -> JSONValue {
    let o = offer.observation
    var item: [ItemKey: JSONValue] = [.text: .string(ServerConfigurationWording.itemText(o.item))]
    switch o.item {
    case .versionOffered(let version):
      item[.type] = .string("versionOffered")
      item[.version] = .string(version.name)
    case .noVersionAtMinimum(let version):
      item[.type] = .string("noVersionAtMinimum")
      item[.version] = .string(version.name)
    case .cipherSuite(let value, let version):
      item[.type] = .string("cipherSuite")
      item[.value] = .string(TLSRegistry.hex(value))
      item[.version] = .string(version.name)
    case .group(let value):
      item[.type] = .string("group")
      item[.value] = .int(value)
    case .certificateKey(let algorithm, let bits):
      item[.type] = .string("certificateKey")
      item[.value] = .string(algorithm)
      item[.bits] = .int(bits)
    case .certificateSignature(let name, let scheme):
      item[.type] = .string("certificateSignature")
      item[.value] = .string(name)
      item[.scheme] = scheme.map { .string(TLSRegistry.hex($0)) } ?? .null
    case .insecureRenegotiation: item[.type] = .string("insecureRenegotiation")
    case .clientRenegotiationAccepted: item[.type] = .string("clientRenegotiationAccepted")
    case .compression: item[.type] = .string("compression")
    }
    return .fields([
      OfferKey.server: .fields([
        ServerKey.address: .string(offer.server.address), .port: .int(Int(offer.server.port)),
      ]),
      .scannedAt: offer.scannedAt.map { .string(Instant.rfc3339ToTheSecond($0)) } ?? .null,
      .item: .fields(item), .standing: standingJSON(o.standing),
      .reference: .string(o.reference), .document: .string(o.document),
    ])
  }

  /// Each check's coverage as JSON, the reasons nothing was assessed with their connections:
  /// findings.json lists the flows too (`withFlowIDs`), `findings --json` counts them.
  public static func checksJSON(_ assessment: SessionAssessment, withFlowIDs: Bool) -> JSONValue {
    .object(
      Dictionary(
        uniqueKeysWithValues: assessment.findings.coverageReports.map { report in
          (
            report.check.rawValue,
            JSONValue.fields([
              CheckKey.flagged: .int(report.flaggedFlowIDs.count),
              .satisfied: .int(report.satisfiedFlowIDs.count),
              .notApplicable: .int(report.notApplicableFlowIDs.count),
              .notAssessed: .array(
                report.unassessed.map {
                  var reason: [UnassessedKey: JSONValue] = [
                    .reason: .string($0.key), .statement: .string($0.sentence),
                    .connections: .int($0.flowIDs.count),
                  ]
                  if withFlowIDs { reason[.flowIDs] = .ints($0.flowIDs) }
                  return .fields(reason)
                }),
            ])
          )
        }))
  }
}
