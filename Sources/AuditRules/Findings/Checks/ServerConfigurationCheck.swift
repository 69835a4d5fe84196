import Audit
import Foundation

extension FindingsCheck {
  public static let serverConfiguration = FindingsCheck(rawValue: "serverConfiguration")
}

extension FindingKind {
  public static let serverOffersNotRecommended = FindingKind(
    "serverOffersNotRecommended", of: .serverConfiguration, meaning: .tls)
}

/// What a scan found a server to offer, judged, that a finding is stated about: the server's
/// address and port, and when it was scanned (a scan is evidence of its own instant).
public struct ServerOffer: Sendable, Hashable {
  public let observation: ServerConfigurationObservation
  public let server: FlowEndpoint
  public let scannedAt: Date?
  public init(observation: ServerConfigurationObservation, server: FlowEndpoint, scannedAt: Date?) {
    self.observation = observation
    self.server = server
    self.scannedAt = scannedAt
  }
}

extension FindingEvidence {
  public static func serverOffers(_ offer: ServerOffer, host: String) -> FindingEvidence {
    FindingEvidence(kind: .serverOffersNotRecommended, host: host, offer: offer)
  }
}

public enum ServerConfigurationGap: String, CheckGap, CaseIterable {
  /// A server the session reached over TLS under an allowlisted name, with no scan kept.
  case notScanned
  public var key: String { rawValue }
}

/// The configuration of the servers the app reached (O.Ntwk_2 reads "configuration" as the
/// server's): each connection to a scanned server carries what that server's latest scan offered
/// that the TLS document does not recommend. A connection's own handshake is the TLS parameter
/// check's; this one speaks of what the server would also have accepted.
public enum ServerConfigurationCheck: FindingsCheckRule {
  public static let check = FindingsCheck.serverConfiguration
  public static let runOrder = 30
  public static let kinds: [FindingKind] = [.serverOffersNotRecommended]
  /// A server nobody scanned leaves the negotiated parameters' judgement standing.
  public static var gapsCountBesideOtherChecks: Bool { false }

  public static var statedForms: [FindingEvidence] {
    let items: [(ServerConfigurationObservation.Item, TLSParameterObservation.Standing, String)] = [
      (.versionOffered(.tls10), .advisedAgainst, ""),
      (.noVersionAtMinimum(.tls12), .recommended, ""),
      (.cipherSuite(0x002F, .tls12), .notListed, "2, 3, 4"),
      (.cipherSuite(0xC027, .tls12), .recommendedUntil(2026), "2, 3, 4"),
      (.group(29), .notListed, "5"), (.group(23), .recommendedUntil(2029), "5"),
      (.certificateKey(algorithm: "RSA", bits: 2048), .belowMinimum(3000), "13"),
      (.certificateKey(algorithm: "Ed25519", bits: 253), .notListed, "13"),
      (.certificateSignature("sha1WithRSAEncryption", scheme: 0x0201), .notListed, "11"),
      (.insecureRenegotiation, .advisedAgainst, "§3.3.4.1"),
      (.clientRenegotiationAccepted, .advisedAgainst, "§3.3.4.1"),
      (.compression, .advisedAgainst, "§3.3.4.3"),
    ]
    return items.map { item, standing, reference in
      .serverOffers(
        ServerOffer(
          observation: ServerConfigurationObservation(
            item: item, standing: standing, reference: reference,
            document: "BSI TR-02102-2 (2025-01)"),
          server: FlowEndpoint(address: "203.0.113.5", port: 443),
          scannedAt: Date(timeIntervalSince1970: 1_790_000_000)), host: "api.example.test")
    }
  }

  public static func assess(_ flow: StoredFlow, in context: CheckContext) -> CheckOutcome<
    ServerConfigurationGap
  > {
    // A connection in the clear is the encryption check's; one whose handshake was not read
    // still reached the server the scan describes.
    guard flow.ipProtocol == .tcp, flow.tlsStatus != .plaintext, let name = flow.name?.text
    else { return .notApplicable }
    let host = DomainPattern.normalised(host: name)
    let server = ScanTargets.server(of: flow)
    guard let judged = context.serverConfigurations.judged(server) else {
      return ScanTargets.isScannedUnasked(host, hosts: context.hosts)
        ? .notAssessed(.notScanned) : .notApplicable
    }
    guard !judged.observations.isEmpty else { return .satisfied }
    return .findings(
      judged.observations.map {
        .serverOffers(
          ServerOffer(observation: $0, server: server, scannedAt: judged.scannedAt), host: host)
      })
  }
}

extension SessionFindings {
  public var serverConfiguration: CheckCoverage<ServerConfigurationGap> {
    ServerConfigurationCheck.coverage(in: self)
  }
}
