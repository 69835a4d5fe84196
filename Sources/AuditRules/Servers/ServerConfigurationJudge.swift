import Audit

/// What of a server's offer the catalogue's TLS document does not recommend, in a year: each item
/// is "offered", never "chosen", for a scan says what a server accepts, not what the app used.
public struct ServerConfigurationObservation: Sendable, Hashable {
  public enum Item: Sendable, Hashable {
    /// A version below the catalogue's TLS minimum, offered.
    case versionOffered(TLSProtocolVersion)
    /// No version at or above the minimum offered.
    case noVersionAtMinimum(TLSProtocolVersion)
    case cipherSuite(UInt16, TLSProtocolVersion)
    case group(UInt16)
    case certificateKey(algorithm: String, bits: Int)
    case certificateSignature(String, scheme: UInt16?)
    /// Renegotiation not as RFC 5746 says (§3.3.4.1 recommends only that).
    case insecureRenegotiation
    /// A renegotiation the client began, accepted (§3.3.4.1: the server should refuse it).
    case clientRenegotiationAccepted
    /// TLS compression offered (§3.3.4.3 recommends against it).
    case compression
  }
  public let item: Item
  public let standing: TLSParameterObservation.Standing
  /// Where the document says it: "Tables 2, 3, 4", "Table 13"; the minimum's source for versions.
  public let reference: String
  public let document: String
}

/// The judgement, pure: the catalogue's tables and minimum version against a server's scan.
public struct ServerConfigurationJudge: Sendable {
  public let policy: FindingsPolicy
  public let year: Int

  public init(policy: FindingsPolicy, year: Int) {
    self.policy = policy
    self.year = year
  }

  public func judge(_ scan: ServerScan) -> [ServerConfigurationObservation] {
    let document = policy.tlsDocument
    var found: [ServerConfigurationObservation] = []
    func note(
      _ item: ServerConfigurationObservation.Item, _ standing: TLSParameterObservation.Standing,
      _ reference: String
    ) {
      found.append(
        ServerConfigurationObservation(
          item: item, standing: standing, reference: reference, document: document))
    }
    let minimum = policy.minimumTLSVersion
    let offered = scan.offeredVersions
    for version in offered where version < minimum {
      note(.versionOffered(version), .advisedAgainst, "")
    }
    if !offered.isEmpty, !offered.contains(where: { $0 >= minimum }) {
      note(.noVersionAtMinimum(minimum), .recommended, "")
    }
    // §3.3.4's further recommendations, which need no table.
    if scan.secureRenegotiation == false {
      note(.insecureRenegotiation, .advisedAgainst, "§3.3.4.1")
    }
    if scan.clientRenegotiationAccepted == true {
      note(.clientRenegotiationAccepted, .advisedAgainst, "§3.3.4.1")
    }
    if scan.compression == true { note(.compression, .advisedAgainst, "§3.3.4.3") }
    // Without the document's tables only the versions and §3.3.4 are judged.
    guard let recommendations = policy.tlsRecommendations else { return found }
    func listed(
      _ value: UInt16, _ version: TLSProtocolVersion,
      in tables: [TLSProtocolVersion: [UInt16: TLSRecommendedItem]], _ kind: String,
      _ item: ServerConfigurationObservation.Item
    ) {
      if let entry = tables[version]?[value] {
        if !entry.until.covers(year) {
          note(item, .recommendedUntil(entry.until.year), entry.table)
        }
      } else {
        note(item, .notListed, recommendations.tablesOf[kind]?[version] ?? "")
      }
    }
    for version in offered where version >= minimum {
      for suite in scan.cipherSuites[version] ?? [] {
        listed(
          suite, version, in: recommendations.cipherSuites, "cipherSuites",
          .cipherSuite(suite, version))
      }
    }
    // A group is judged against the newest version offered that has tables for groups.
    if let version = offered.reversed().first(where: { recommendations.groups[$0] != nil }) {
      for group in scan.groups {
        listed(group, version, in: recommendations.groups, "groups", .group(group))
      }
    }
    if let (algorithm, bits) = scan.certificateKey {
      let item = ServerConfigurationObservation.Item.certificateKey(
        algorithm: algorithm, bits: bits)
      if let least = recommendations.minimumKeys[algorithm] {
        if bits < least.bits {
          note(item, .belowMinimum(least.bits), least.item.table)
        } else if !least.item.until.covers(year) {
          note(item, .recommendedUntil(least.item.until.year), least.item.table)
        }
      } else {
        note(item, .notListed, recommendations.minimumTablesText)
      }
    }
    if let signature = scan.certificateSignature,
      let version = offered.reversed().first(where: {
        recommendations.certificateSignatures[$0] != nil
      })
    {
      let scheme = TLSParameterJudge.scheme(ofCertificateSignature: signature)
      listed(
        scheme ?? 0xFFFF, version, in: recommendations.certificateSignatures,
        "certificateSignatures", .certificateSignature(signature, scheme: scheme))
    }
    return found
  }
}
