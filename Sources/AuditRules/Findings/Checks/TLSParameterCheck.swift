import Audit
import Foundation

extension FindingsCheck {
  public static let tlsParameters = FindingsCheck(rawValue: "tlsParameters")
}

extension FindingKind {
  public static let cipherSuiteNotRecommended = FindingKind(
    "cipherSuiteNotRecommended", of: .tlsParameters, meaning: .tls)
  public static let groupNotRecommended = FindingKind(
    "groupNotRecommended", of: .tlsParameters, meaning: .tls)
  public static let signatureNotRecommended = FindingKind(
    "signatureNotRecommended", of: .tlsParameters, meaning: .tls)
  public static let keyBelowMinimum = FindingKind(
    "keyBelowMinimum", of: .tlsParameters, meaning: .tls)
  public static let extensionMissing = FindingKind(
    "extensionMissing", of: .tlsParameters, meaning: .tls)
  public static let featureAdvisedAgainst = FindingKind(
    "featureAdvisedAgainst", of: .tlsParameters, meaning: .tls)
}

/// Which handshake a parameter was read from.
public enum TLSParameterLeg: String, Sendable, Hashable, CaseIterable {
  /// The server's answer on the app's own connection.
  case appConnection
  /// The real server's answer to the inspecting proxy's own connection: to the proxy's offer,
  /// not the app's.
  case proxyConnection
  /// The app's ClientHello.
  case appOffer
}

/// One TLS parameter judged against the document: what it is, how the document stands on it,
/// on which version and leg, and where the document says so.
public struct TLSParameterObservation: Sendable, Hashable {
  public enum Item: Sendable, Hashable {
    case cipherSuite(UInt16)
    case group(UInt16)
    /// A ServerKeyExchange's signature.
    case signatureScheme(UInt16)
    /// A certificate's signature, by OpenSSL's name, and the scheme it was judged as (nil: none).
    case certificateSignature(String, scheme: UInt16?)
    /// The server certificate's key ("RSA", "ECDSA", "DSA", or another algorithm's name).
    case certificateKey(algorithm: String, bits: Int)
    /// A DHE prime.
    case dhPrime(bits: Int)
    case extensionMissing(UInt16)
    case extensionUsed(UInt16)
    case compression(UInt8)
    case earlyData
  }
  public enum Standing: Sendable, Hashable {
    /// In none of the document's tables for the version.
    case notListed
    /// Listed, recommended only until the year, which the session is past.
    case recommendedUntil(Int)
    /// Shorter than the minimum in bits.
    case belowMinimum(Int)
    /// The document advises against it.
    case advisedAgainst
    /// The document recommends it and the handshake did not use it.
    case recommended
  }
  public let item: Item
  public let standing: Standing
  public let version: TLSProtocolVersion
  public let leg: TLSParameterLeg
  /// Where the document says it: "Tables 2, 3, 4", "Table 13", "§3.3.4.7".
  public let reference: String
  /// "BSI TR-02102-2 (2025-01)".
  public let document: String

  public var kind: FindingKind {
    switch item {
    case .cipherSuite: return .cipherSuiteNotRecommended
    case .group: return .groupNotRecommended
    case .signatureScheme, .certificateSignature: return .signatureNotRecommended
    case .certificateKey, .dhPrime: return .keyBelowMinimum
    case .extensionMissing: return .extensionMissing
    case .extensionUsed, .compression, .earlyData: return .featureAdvisedAgainst
    }
  }
}

extension FindingEvidence {
  public static func tlsParameter(_ observation: TLSParameterObservation, host: String?)
    -> FindingEvidence
  {
    FindingEvidence(kind: observation.kind, host: host, parameter: observation)
  }
}

public enum TLSParameterGap: String, CheckGap, CaseIterable {
  /// The catalogue carries no TLS recommendations.
  case noRecommendations
  /// The server's answer was not read (a ClientHello alone, or the status from the port).
  case serverAnswerNotRead
  /// A version the document has no tables for (the version check speaks of it).
  case versionWithoutTables
  public var key: String { rawValue }
}

/// The parameters a server chose, and the app's offer of early data, against the catalogue's TLS
/// document (TR-02102-2), evaluated in the year the session began.
public enum TLSParameterCheck: FindingsCheckRule {
  public static let check = FindingsCheck.tlsParameters
  public static let runOrder = 20
  public static let kinds: [FindingKind] = [
    .cipherSuiteNotRecommended, .groupNotRecommended, .signatureNotRecommended, .keyBelowMinimum,
    .extensionMissing, .featureAdvisedAgainst,
  ]

  public static var statedForms: [FindingEvidence] {
    let forms: [(TLSParameterObservation.Item, TLSParameterObservation.Standing, String)] = [
      (.cipherSuite(0x002F), .notListed, "2, 3, 4"), (.group(29), .notListed, "5"),
      (.signatureScheme(0x0401), .recommendedUntil(2025), "6, 7"),
      (.certificateSignature("sha1WithRSAEncryption", scheme: 0x0201), .notListed, "11"),
      (.certificateKey(algorithm: "RSA", bits: 2048), .belowMinimum(3000), "13"),
      (.certificateKey(algorithm: "Ed25519", bits: 253), .notListed, "13"),
      (.dhPrime(bits: 2048), .belowMinimum(3000), "13"),
      (.extensionMissing(23), .recommended, "§3.3.4.7"),
      (.extensionUsed(15), .advisedAgainst, "§3.3.4.6"),
      (.compression(1), .advisedAgainst, "§3.3.4.3"), (.earlyData, .advisedAgainst, "§3.4.1"),
    ]
    return forms.flatMap { item, standing, reference in
      [TLSParameterLeg.appConnection, .proxyConnection].map {
        .tlsParameter(
          TLSParameterObservation(
            item: item, standing: standing, version: .tls12,
            leg: item == .earlyData ? .appOffer : $0, reference: reference,
            document: "BSI TR-02102-2 (2025-01)"), host: "api.example")
      }
    }
  }

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    TLSParameterGap
  > {
    let handshake: ServerTLSHandshake
    switch flow.serverTLS {
    case .refused?: return .notApplicable
    case .negotiated(let negotiated)?: handshake = negotiated
    case nil:
      return flow.clientTLS != nil || flow.quic != nil || flow.tlsStatus != .plaintext
        ? .notAssessed(.serverAnswerNotRead) : .notApplicable
    }
    guard let recommendations = context.policy.tlsRecommendations else {
      return .notAssessed(.noRecommendations)
    }
    guard recommendations.cipherSuites[handshake.version] != nil else {
      return .notAssessed(.versionWithoutTables)
    }
    let year = context.session.startYear
    let observations = TLSParameterJudge(
      recommendations: recommendations, document: context.policy.tlsDocument, year: year
    ).judge(handshake, key: flow.serverKey, offer: flow.clientTLS)
    guard !observations.isEmpty else { return .satisfied }
    let host = flow.name.map { DomainPattern.normalised(host: $0.text) }
    return .findings(observations.map { .tlsParameter($0, host: host) })
  }
}

extension SessionFindings {
  public var tlsParameters: CheckCoverage<TLSParameterGap> {
    TLSParameterCheck.coverage(in: self)
  }
}

/// The judgement itself, pure: what of a handshake the document does not recommend in a year.
public struct TLSParameterJudge: Sendable {
  public let recommendations: TLSRecommendations
  public let document: String
  public let year: Int

  public init(recommendations: TLSRecommendations, document: String, year: Int) {
    self.recommendations = recommendations
    self.document = document
    self.year = year
  }

  public func judge(
    _ handshake: ServerTLSHandshake, key: CertificateKeyReading?, offer: ClientTLSOffer?
  ) -> [TLSParameterObservation] {
    let version = handshake.version
    let leg: TLSParameterLeg =
      handshake.source == .serverHello ? .appConnection : .proxyConnection
    var found: [TLSParameterObservation] = []
    func note(
      _ item: TLSParameterObservation.Item, _ standing: TLSParameterObservation.Standing,
      _ reference: String, leg: TLSParameterLeg = leg
    ) {
      found.append(
        TLSParameterObservation(
          item: item, standing: standing, version: version, leg: leg, reference: reference,
          document: document))
    }
    func listed(
      _ value: UInt16, in tables: [TLSProtocolVersion: [UInt16: TLSRecommendedItem]],
      _ kind: String, _ item: TLSParameterObservation.Item
    ) {
      if let entry = tables[version]?[value] {
        if !entry.until.covers(year) {
          note(item, .recommendedUntil(entry.until.year), entry.table)
        }
      } else {
        note(item, .notListed, recommendations.tablesOf[kind]?[version] ?? "")
      }
    }
    listed(
      handshake.cipherSuite, in: recommendations.cipherSuites, "cipherSuites",
      .cipherSuite(handshake.cipherSuite))
    let parameters = handshake.parameters
    if let group = parameters.group {
      listed(group, in: recommendations.groups, "groups", .group(group))
    }
    if let scheme = parameters.signatureScheme {
      listed(
        scheme, in: recommendations.signatureSchemes, "signatureSchemes",
        .signatureScheme(scheme))
    }
    if let bits = parameters.dhPrimeBits, let minimum = recommendations.minimumKeys["DH"] {
      judgeKey(bits: bits, minimum: minimum, .dhPrime(bits: bits)) { note($0, $1, $2) }
    }
    if let key {
      let keyLeg: TLSParameterLeg = key.source == .serverHello ? .appConnection : .proxyConnection
      let algorithm = key.algorithm == "EC" ? "ECDSA" : key.algorithm
      let item = TLSParameterObservation.Item.certificateKey(algorithm: algorithm, bits: key.bits)
      if let minimum = recommendations.minimumKeys[algorithm] {
        judgeKey(bits: key.bits, minimum: minimum, item) { note($0, $1, $2, leg: keyLeg) }
      } else {
        note(item, .notListed, recommendations.minimumTablesText, leg: keyLeg)
      }
      let scheme = Self.scheme(ofCertificateSignature: key.signature)
      let signature = TLSParameterObservation.Item.certificateSignature(
        key.signature, scheme: scheme)
      if let scheme, let entry = recommendations.certificateSignatures[version]?[scheme] {
        if !entry.until.covers(year) {
          note(signature, .recommendedUntil(entry.until.year), entry.table, leg: keyLeg)
        }
      } else {
        note(
          signature, .notListed,
          recommendations.tablesOf["certificateSignatures"]?[version] ?? "", leg: keyLeg)
      }
    }
    if let extensions = parameters.extensions {
      for advice in recommendations.requiredExtensions
      where advice.applies(to: version, cipherSuite: handshake.cipherSuite)
        && !extensions.contains(advice.value)
      {
        note(.extensionMissing(advice.value), .recommended, "§" + advice.section)
      }
      for advice in recommendations.avoidedExtensions
      where advice.applies(to: version, cipherSuite: handshake.cipherSuite)
        && extensions.contains(advice.value)
      {
        note(.extensionUsed(advice.value), .advisedAgainst, "§" + advice.section)
      }
    }
    if let method = parameters.compressionMethod, method != 0,
      let section = recommendations.compressionSection
    {
      note(.compression(method), .advisedAgainst, "§" + section)
    }
    if let offer, offer.extensions.contains(42), let section = recommendations.earlyDataSection {
      note(.earlyData, .advisedAgainst, "§" + section, leg: .appOffer)
    }
    return found
  }

  private func judgeKey(
    bits: Int, minimum: TLSKeyMinimum, _ item: TLSParameterObservation.Item,
    _ note: (TLSParameterObservation.Item, TLSParameterObservation.Standing, String) -> Void
  ) {
    if bits < minimum.bits {
      note(item, .belowMinimum(minimum.bits), minimum.item.table)
    } else if !minimum.item.until.covers(year) {
      note(item, .recommendedUntil(minimum.item.until.year), minimum.item.table)
    }
  }

  /// The signature scheme a certificate's signature algorithm (OpenSSL's long name) amounts to.
  /// RSA-PSS names no hash here: it is judged as rsa_pss_rsae_sha256, whose standing every
  /// RSA-PSS scheme shares in TR-02102-2.
  public static func scheme(ofCertificateSignature name: String) -> UInt16? {
    switch name {
    case "sha1WithRSAEncryption": return 0x0201
    case "sha256WithRSAEncryption": return 0x0401
    case "sha384WithRSAEncryption": return 0x0501
    case "sha512WithRSAEncryption": return 0x0601
    case "ecdsa-with-SHA1": return 0x0203
    case "ecdsa-with-SHA256": return 0x0403
    case "ecdsa-with-SHA384": return 0x0503
    case "ecdsa-with-SHA512": return 0x0603
    case "rsassaPss": return 0x0804
    case "dsa_with_SHA256": return 0x0402
    case "ED25519": return 0x0807
    case "ED448": return 0x0808
    default: return nil
    }
  }
}

extension TLSRecommendations {
  /// The tables of the minimum key lengths, to cite for an algorithm they do not list.
  var minimumTablesText: String {
    Array(Set(minimumKeys.values.map(\.item.table))).sorted().joined(separator: ", ")
  }
}
